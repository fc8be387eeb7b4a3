import NIOCore
import NIOHTTP1

extension ChannelHandlerContext {
    /// A whole answer in the HTTP encoder's parts; the future completes once it is written.
    @discardableResult
    func writeAnswer(_ head: HTTPResponseHead, _ body: ByteBuffer) -> EventLoopFuture<Void> {
        write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        if body.readableBytes > 0 { write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(body))), promise: nil) }
        return writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
    }

    /// An answer that ends the connection (and says so).
    func writeFinalAnswer(_ head: HTTPResponseHead, _ body: ByteBuffer) {
        var head = head
        head.headers.replaceOrAdd(name: "connection", value: "close")
        writeAnswer(head, body).assumeIsolated().whenComplete { _ in self.close(promise: nil) }
    }
}
