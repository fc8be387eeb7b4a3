import NIOCore
import NIOHTTP1

/// The service's side of a WebSocket splice until the splice is in place: reads the service's
/// answer to the upgrade request from the raw bytes, then holds the bytes that follow it (the
/// service may speak first, as Engine.IO does with its open packet) until `handOver`. No HTTP
/// decoder is involved: one would have to be taken out of the pipeline, which NIO does a tick
/// later, and bytes that arrive meanwhile would wait inside it.
final class UpgradeHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private enum Phase {
        case head
        /// A refusal's body: up to `length` bytes, or until the service closes when it gave none.
        case body(HTTPResponseHead, length: Int?)
        /// The answer is out; what follows is the WebSocket's.
        case holding([NIOAny])
    }

    private var phase = Phase.head
    private var buffer = ByteBuffer()
    private var promise: EventLoopPromise<UpgradeAnswer>?
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    private let timeout: TimeAmount
    private static let headLimit = 16 << 10
    /// Refusals are small; a longer body is cut here.
    private static let bodyLimit = 64 << 10

    init(promise: EventLoopPromise<UpgradeAnswer>, timeout: TimeAmount) {
        self.promise = promise
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
            self?.fail(UpstreamError.timedOut)
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .holding(var held) = phase {
            held.append(data)
            phase = .holding(held)
            return
        }
        var bytes = unwrapInboundIn(data)
        buffer.writeBuffer(&bytes)
        do {
            try advance(context: context)
        } catch {
            fail(error)
            context.close(promise: nil)
        }
    }

    private func advance(context: ChannelHandlerContext) throws {
        if case .head = phase {
            guard let head = try Self.takeHead(from: &buffer) else { return }
            if head.status == .switchingProtocols {
                let rest = buffer.readableBytes > 0 ? [NIOAny(buffer)] : []
                buffer = ByteBuffer()
                phase = .holding(rest)
                succeed(head, body: ByteBuffer(), context: context)
                return
            }
            phase = .body(head, length: head.headers.first(name: "content-length").flatMap(Int.init))
        }
        if case .body(let head, let length) = phase {
            let wanted = min(length ?? Self.bodyLimit, Self.bodyLimit)
            if buffer.readableBytes >= wanted, let body = buffer.getSlice(at: buffer.readerIndex, length: wanted) {
                succeed(head, body: body, context: context)
            }
        }
    }

    /// The head, once the blank line that ends it has arrived.
    private static func takeHead(from buffer: inout ByteBuffer) throws -> HTTPResponseHead? {
        let view = buffer.readableBytesView
        var end: Int?
        var index = view.startIndex
        while index + 3 < view.endIndex {
            if view[index] == 13, view[index + 1] == 10, view[index + 2] == 13, view[index + 3] == 10 {
                end = index - view.startIndex
                break
            }
            index += 1
        }
        guard let end else {
            if buffer.readableBytes > headLimit { throw UpstreamError.connectionClosed }
            return nil
        }
        let text = buffer.readString(length: end) ?? ""
        buffer.moveReaderIndex(forwardBy: 4)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        let statusLine = lines.popFirst()?.split(separator: " ", maxSplits: 2) ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let code = Int(statusLine[1]) else {
            throw UpstreamError.connectionClosed
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return HTTPResponseHead(version: .http1_1, status: .init(statusCode: code), headers: headers)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .body(let head, _) = phase {
            // A refusal without a length ends with the connection.
            succeed(head, body: buffer, context: context)
        }
        fail(UpstreamError.closedBeforeAnswer)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    /// Passes on what arrived after the answer, to the splice now behind this handler, and leaves.
    func handOver() {
        guard let context, case .holding(let held) = phase else { return }
        phase = .holding([])
        for data in held { context.fireChannelRead(data) }
        context.fireChannelReadComplete()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func succeed(_ head: HTTPResponseHead, body: ByteBuffer, context: ChannelHandlerContext) {
        timer?.cancel()
        guard let promise else { return }
        self.promise = nil
        let answer = UpgradeAnswer(head: head, body: body, channel: context.channel)
        // Not from within this read: the caller rearranges this pipeline.
        context.eventLoop.execute { promise.succeed(answer) }
    }

    private func fail(_ error: any Error) {
        timer?.cancel()
        guard let promise else { return }
        self.promise = nil
        promise.fail(error)
    }
}

/// A service's answer to an upgrade request, on a connection of its own: after a 101 the
/// connection carries the WebSocket; any other answer is passed to the client as it is.
struct UpgradeAnswer: Sendable {
    var head: HTTPResponseHead
    var body: ByteBuffer
    var channel: any Channel
}
