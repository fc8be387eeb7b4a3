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

extension ChannelHandlerContext {
    /// A large answer's body, passed on part by part, each written before the next is taken, so a
    /// slow client slows the service's connection rather than filling memory. `wrap` makes what is
    /// written of a part, and of the end (nil); `ended` runs on the loop once the end is written.
    /// A stream that fails (the service or the client went away) closes the connection: the
    /// client sees a cut answer.
    func relay(_ stream: UpstreamBodyStream, wrap: @escaping @Sendable (ByteBuffer?) -> NIOAny, ended: @escaping () -> Void) {
        let target = NIOLoopBound((context: self, ended: ended), eventLoop: eventLoop)
        Task {
            do {
                for try await part in stream {
                    try await target.eventLoop.flatSubmit { target.value.context.writeAndFlush(wrap(part)) }.get()
                }
                target.eventLoop.execute {
                    target.value.context.writeAndFlush(wrap(nil), promise: nil)
                    target.value.ended()
                }
            } catch {
                target.eventLoop.execute { target.value.context.close(promise: nil) }
            }
        }
    }
}
