import Contracts
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ServiceKit

/// A `/socket.io/` WebSocket spliced to chat-svc. The client's upgrade request (with the internal
/// headers) goes to chat-svc on a connection of its own and its answer comes back as it is; after
/// a 101 the two connections are joined byte for byte (`SpliceHandler`): the gateway decodes and
/// re-encodes no frame, and the WebSocket handshake (key, extensions) is chat-svc's. Takes the
/// place of `DirectForwardHandler`, which hands the connection over after the upgrade request.
final class SocketSpliceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    static let route = "/socket.io/"
    private let upgrade: DirectUpgrade
    private let proxy: ProxyController
    private let metrics: RequestMetrics
    private let logger: Logger
    private let start = ContinuousClock.now
    /// Bytes that follow the upgrade request (raw, once the HTTP decoder is out), until the splice.
    private var held: [NIOAny] = []
    private var dates = HTTPDateCache()

    init(_ upgrade: DirectUpgrade, proxy: ProxyController, metrics: RequestMetrics, logger: Logger) {
        self.upgrade = upgrade
        self.proxy = proxy
        self.metrics = metrics
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        proxy.upstream.upgrade(.chat, upgrade.head, context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let answer) where !context.channel.isActive:
                answer.channel.close(promise: nil)
            case .success(let answer) where answer.head.status == .switchingProtocols:
                do {
                    try self.splice(answer, context: context)
                } catch {
                    self.logger.warning("socket.io splice failed", metadata: ["error": "\(error)", "request_id": .string(self.upgrade.requestID)])
                    answer.channel.close(promise: nil)
                    context.close(promise: nil)
                }
            case .success(let answer):
                // chat-svc refused (a bad token, say): its answer, then the connection ends.
                answer.channel.close(promise: nil)
                let head = self.proxy.clientHead(answer.head, length: answer.body.readableBytes, requestID: self.upgrade.requestID, dates: &self.dates)
                self.answerAndClose(head, answer.body, context: context)
            case .failure:
                let rendered = self.proxy.unavailable(.chat, app: self.upgrade.app)
                let (head, body) = self.proxy.directAnswer(rendered, requestID: self.upgrade.requestID, dates: &self.dates)
                self.answerAndClose(head, body, context: context)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        held.append(data)
    }

    private func splice(_ answer: UpgradeAnswer, context: ChannelHandlerContext) throws {
        // The client's HTTP decoder leaves the pipeline a tick later (NIO's way); the client sends
        // nothing before the 101, so the 101 waits for it.
        let client = context.pipeline.syncOperations
        if let upgrader = try? client.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self) {
            client.removeHandler(upgrader, promise: nil)
        }
        let decoderGone = context.eventLoop.makePromise(of: Void.self)
        client.removeHandler(try client.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self), promise: decoderGone)
        decoderGone.futureResult.assumeIsolated().whenComplete { result in
            do {
                guard case .success = result, context.channel.isActive else { throw UpstreamError.connectionClosed }
                try self.join(answer, context: context)
            } catch {
                answer.channel.close(promise: nil)
                context.close(promise: nil)
            }
        }
    }

    private func join(_ answer: UpgradeAnswer, context: ChannelHandlerContext) throws {
        // The 101 as chat-svc made it: its Sec-WebSocket-Accept answers the client's key.
        var head = answer.head
        head.headers.replaceOrAdd(name: InternalHeader.requestID, value: upgrade.requestID)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        let client = context.pipeline.syncOperations
        client.removeHandler(try client.handler(type: HTTPResponseEncoder.self), promise: nil)
        let service = answer.channel.pipeline.syncOperations
        service.removeHandler(try service.handler(type: HTTPRequestEncoder.self), promise: nil)

        let (clientSide, serviceSide) = SpliceHandler.pair()
        try client.addHandler(clientSide)
        try service.addHandler(serviceSide)
        // What each side sent after its head goes on first.
        try service.handler(type: UpgradeHandshakeHandler.self).handOver()
        for data in held { context.fireChannelRead(data) }
        held = []
        context.fireChannelReadComplete()
        finished(status: 101)
        client.removeHandler(context: context, promise: nil)
    }

    private func answerAndClose(_ head: HTTPResponseHead, _ body: ByteBuffer, context: ChannelHandlerContext) {
        context.writeFinalAnswer(head, body)
        finished(status: Int(head.status.code))
    }

    private func finished(status: Int) {
        Self.record(status: status, since: start, requestID: upgrade.requestID, metrics: metrics, logger: logger)
    }

    /// A socket's metrics and access line, whether it was spliced or refused.
    static func record(status: Int, since start: ContinuousClock.Instant, requestID: String, metrics: RequestMetrics, logger: Logger) {
        metrics.record(method: "GET", route: route, status: status, since: start)
        AccessLogMiddleware.log(to: logger, level: .info, method: .get, path: route, status: status, since: start, metadata: ["request_id": .string(requestID)])
    }
}
