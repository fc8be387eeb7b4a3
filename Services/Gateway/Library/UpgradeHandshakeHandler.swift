import NIOCore
import NIOHTTP1

/// The service's side of a WebSocket splice until the splice is in place: collects the service's
/// answer to the upgrade request, then holds the bytes that follow it (the service may speak
/// first, as Engine.IO does with its open packet) until `handOver`.
final class UpgradeHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private var promise: EventLoopPromise<UpgradeAnswer>?
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var held: [NIOAny]?
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    /// The answer's body is only kept for refusals, which are small.
    private static let bodyLimit = 64 << 10

    private let timeout: TimeAmount

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

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if held != nil {
            // Raw bytes, once the HTTP decoder is gone.
            held?.append(data)
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let answer):
            // 1xx answers other than the upgrade precede the real one.
            if answer.status.code >= 200 || answer.status == .switchingProtocols { head = answer }
        case .body(var part):
            if body.readableBytes + part.readableBytes <= Self.bodyLimit { body.writeBuffer(&part) }
        case .end:
            guard let head else { return }
            timer?.cancel()
            held = []
            let answer = UpgradeAnswer(head: head, body: body, channel: context.channel)
            let promise = self.promise
            self.promise = nil
            // Not from within the decoder's own read: the caller takes the decoder out.
            context.eventLoop.execute { promise?.succeed(answer) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(UpstreamError.closedBeforeAnswer)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    /// Passes on what arrived after the answer, to the splice now behind this handler, and leaves.
    func handOver() {
        guard let context else { return }
        for data in held ?? [] { context.fireChannelRead(data) }
        held = nil
        context.fireChannelReadComplete()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
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
