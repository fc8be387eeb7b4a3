import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import ServiceKit

/// A `/socket.io/` WebSocket spliced to chat-svc. The upgrade request is admitted by the policy
/// like any request (key, rate limits; refusals in the app's dialect), then sent (with the
/// internal headers) to chat-svc on a connection of its own, and chat-svc's answer comes back as
/// it is; after a 101 the two connections are joined byte for byte (`SpliceHandler`): the gateway
/// decodes and re-encodes no frame, and the WebSocket handshake (key, extensions) is chat-svc's.
/// Takes the place of `DirectForwardHandler`, which hands the connection over after the upgrade
/// request. With `Upstream.handOver` (chat-svc on this machine) the connection itself goes to
/// chat-svc instead (`SocketHandoff`), and the gateway is out of its path; a failed handoff
/// falls back to the splice.
final class SocketSpliceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    static let route = "/socket.io/"
    private let head: HTTPRequestHead
    private let remoteIP: String?
    private let policy: GatewayPolicy
    private let upstream: Upstream
    private let metrics: RequestMetrics
    private let logger: Logger
    private let start = ContinuousClock.now
    private let requestID: String
    /// Bytes that follow the upgrade request (raw, once the HTTP decoder is out), until the splice.
    private var held: [NIOAny] = []
    private var dates = HTTPDateCache()

    init(_ head: HTTPRequestHead, remoteIP: String?, policy: GatewayPolicy, upstream: Upstream, metrics: RequestMetrics, logger: Logger) {
        self.head = head
        self.remoteIP = remoteIP
        self.policy = policy
        self.upstream = upstream
        self.metrics = metrics
        self.logger = logger
        self.requestID = RequestIDMiddleware.requestID(offered: head.headers.first(name: InternalHeader.requestID))
    }

    /// Engine.IO's WebSocket transport: `GET /socket.io/…?transport=websocket` asking to upgrade.
    static func isSocketIOWebSocket(_ head: HTTPRequestHead) -> Bool {
        guard head.method == .GET, head.headers.first(name: "upgrade")?.lowercased() == "websocket" else { return false }
        let uri = URI(head.uri)
        return uri.path.hasPrefix("/socket.io") && uri.queryParameters["transport"] == "websocket"
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let request = GatewayPolicy.Request(
            method: "GET", path: URI(head.uri).path[...], appKey: head.headers.first(name: "sesackey"),
            clientIP: policy.clientIP(forwardedFor: head.headers.first(name: "x-forwarded-for"), remoteIP: remoteIP), contentLength: nil
        )
        switch policy.decide(request) {
        case .admit(let admission):
            upgrade(admission, context: context)
        case .refuse(let answer):
            refuse(answer, context: context)
        case .resolveKey, .resolveMount:
            // A key (or mount) not yet in the cache: asked off the event loop, then admitted or refused.
            let target = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            let policy = self.policy
            Task {
                let decision: Result<GatewayPolicy.Admission, GatewayPolicy.Refusal>
                do throws(GatewayPolicy.Refusal) {
                    decision = .success(try await policy.admit(request))
                } catch {
                    decision = .failure(error)
                }
                target.eventLoop.execute {
                    let (handler, context) = target.value
                    guard context.channel.isActive else { return }
                    switch decision {
                    case .success(let admission): handler.upgrade(admission, context: context)
                    case .failure(let refusal): handler.refuse(refusal.answer, context: context)
                    }
                }
            }
        }
    }

    /// The socket is not opened; the connection ends with the answer.
    private func refuse(_ answer: RenderedAnswer, context: ChannelHandlerContext) {
        let (head, body) = policy.clientAnswer(answer, requestID: requestID, dates: &dates)
        answerAndClose(head, body, context: context)
    }

    private func upgrade(_ admission: GatewayPolicy.Admission, context: ChannelHandlerContext) {
        var upstreamHead = policy.upstreamHead(
            method: .GET, uri: head.uri, fields: head.headers, app: admission.app, requestID: requestID, clientIP: admission.clientIP
        )
        // Hop-by-hop, so not copied: the upgrade is asked of chat-svc anew.
        upstreamHead.add("connection", "Upgrade")
        upstreamHead.add("upgrade", "websocket")
        if let handOver = upstream.handOver {
            // The client's bytes must all have been read off the HTTP decoder before the
            // connection changes hands: the handoff waits for the decoder to leave.
            leaveHTTP(context: context) { left in
                guard left, context.channel.isActive else { return context.close(promise: nil) }
                if let descriptor = SocketHandoff.descriptor(of: context.channel),
                    handOver(admission.route.service, descriptor, self.handoffRequest(upstreamHead))
                {
                    // chat-svc holds the connection now: ours is only closed here, never shut down.
                    self.finished(status: 101)
                    context.close(promise: nil)
                } else {
                    self.relay(upstreamHead, admission, context: context)
                }
            }
        } else {
            relay(upstreamHead, admission, context: context)
        }
    }

    /// The request as chat-svc reads it off a handed-over connection, then what the client sent
    /// after it.
    private func handoffRequest(_ head: UpstreamRequestHead) -> [UInt8] {
        var bytes = Array(head.lines.readableBytesView)
        bytes += "\r\n".utf8
        for data in held { bytes += unwrapInboundIn(data).readableBytesView }
        held = []
        return bytes
    }

    /// chat-svc answers the upgrade on a connection of the gateway's; a 101 is spliced.
    private func relay(_ upstreamHead: UpstreamRequestHead, _ admission: GatewayPolicy.Admission, context: ChannelHandlerContext) {
        upstream.upgrade(admission.route.service, upstreamHead, context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let answer) where !context.channel.isActive:
                answer.channel.close(promise: nil)
            case .success(let answer) where answer.head.status == .switchingProtocols:
                do {
                    try self.splice(answer, context: context)
                } catch {
                    self.logger.warning("socket.io splice failed", metadata: ["error": "\(error)", "request_id": .string(self.requestID)])
                    answer.channel.close(promise: nil)
                    context.close(promise: nil)
                }
            case .success(let answer):
                // chat-svc refused (a bad token, say): its answer, then the connection ends.
                answer.channel.close(promise: nil)
                let head = self.policy.clientHead(answer.head, length: answer.body.readableBytes, requestID: self.requestID, dates: &self.dates)
                self.answerAndClose(head, answer.body, context: context)
            case .failure:
                self.refuse(self.policy.unavailable(admission.route.service, app: admission.app), context: context)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        held.append(data)
    }

    private func splice(_ answer: UpgradeAnswer, context: ChannelHandlerContext) throws {
        // The client sends nothing before the 101, so the 101 waits for the decoder to go.
        leaveHTTP(context: context) { left in
            do {
                guard left, context.channel.isActive else { throw UpstreamError.connectionClosed }
                try self.join(answer, context: context)
            } catch {
                answer.channel.close(promise: nil)
                context.close(promise: nil)
            }
        }
    }

    /// Takes Hummingbird's upgrade handler and NIO's HTTP decoder out of the client's pipeline;
    /// the decoder leaves a tick later (NIO's way), handing us whatever followed the request.
    /// `then` runs once it has (at once when it already had), with false if it could not.
    private func leaveHTTP(context: ChannelHandlerContext, then: @escaping (Bool) -> Void) {
        let client = context.pipeline.syncOperations
        FrontedHTTP1Channel.removeUpgrader(from: client)
        guard let decoder = try? client.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else { return then(true) }
        let decoderGone = context.eventLoop.makePromise(of: Void.self)
        client.removeHandler(decoder, promise: decoderGone)
        decoderGone.futureResult.assumeIsolated().whenComplete { result in
            if case .success = result { then(true) } else { then(false) }
        }
    }

    private func join(_ answer: UpgradeAnswer, context: ChannelHandlerContext) throws {
        // The 101 as chat-svc made it: its Sec-WebSocket-Accept answers the client's key.
        var head = answer.head
        head.headers.replaceOrAdd(name: InternalHeader.requestID, value: requestID)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        let client = context.pipeline.syncOperations
        client.removeHandler(try client.handler(type: HTTPResponseEncoder.self), promise: nil)
        let service = answer.channel.pipeline.syncOperations

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

    /// A socket's metrics and access line, whether it was spliced or refused.
    private func finished(status: Int) {
        metrics.record(method: "GET", route: Self.route, status: status, since: start)
        policy.requestLog.record(
            status: status,
            RequestLog.Ended(
                method: "GET", route: Self.route, start: start, app: nil, requestID: requestID,
                authorization: head.headers.first(name: "authorization")))
        AccessLogMiddleware.log(
            to: logger, level: .info, method: .get, path: Self.route, status: status, since: start, metadata: ["request_id": .string(requestID)])
    }
}
