import Contracts
import NIOCore
import NIOHTTP1
import ServiceKit
import SocketIO

/// chat-svc's connections start here (see `FrontedHTTP1Channel`): a connection whose first
/// request is a WebSocket handshake the Engine.IO server accepts is answered 101 and becomes that
/// socket, with NIO's frame decoder and the engine's own handler in place of every HTTP handler
/// (no async streams and no task per frame or per socket). Any other request goes to
/// Hummingbird, and with it the rest of its connection; on a connection the gateway handed over
/// (no Hummingbird behind it) it is answered 400 and the connection ends.
final class EngineUpgradeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The engine's handlers for a handshake, or nil when it is not a socket it takes.
    private let accept: (HTTPRequestHead, any EventLoop) -> [any ChannelHandler]?
    private var routerStarted: EventLoopPromise<Void>?
    /// False on a handed-over connection: nothing to pass requests on to.
    private let routed: Bool
    /// A WebSocket handshake, answered once its request has ended.
    private var handshake: HTTPRequestHead?

    init(routerStarted: EventLoopPromise<Void>?, accept: @escaping (HTTPRequestHead, any EventLoop) -> [any ChannelHandler]?) {
        self.routerStarted = routerStarted
        self.routed = routerStarted != nil
        self.accept = accept
    }

    /// RFC 6455 §4.2.1, as far as the head tells: the engine decides the rest.
    static func isWebSocketHandshake(_ head: HTTPRequestHead) -> Bool {
        head.method == .GET && head.headers.first(name: "upgrade")?.lowercased() == "websocket"
            && head.headers.first(name: "sec-websocket-version") == "13" && head.headers.contains(name: "sec-websocket-key")
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        routerStarted?.fail(ChannelError.ioOnClosedChannel)
        routerStarted = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head) where handshake == nil && Self.isWebSocketHandshake(head):
            handshake = head
        case .body where handshake != nil:
            break  // a handshake is a GET: nothing to keep
        case .end where handshake != nil:
            guard let head = handshake else { return }
            handshake = nil
            if let handlers = accept(head, context.eventLoop), let key = head.headers.first(name: "sec-websocket-key") {
                takeOver(head, key: key, handlers: handlers, context: context)
            } else {
                passOn([.head(head), .end(nil)], context: context)
            }
        case let part:
            passOn([part], context: context)
        }
    }

    /// Hummingbird sets up its side of the connection and answers from here on.
    private func passOn(_ parts: [HTTPServerRequestPart], context: ChannelHandlerContext) {
        guard routed else {
            let body = ByteBuffer(string: EngineError.badRequest.json)
            let headers: HTTPHeaders = ["content-type": "application/json", "content-length": String(body.readableBytes), "connection": "close"]
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        routerStarted?.succeed()
        routerStarted = nil
        for part in parts { context.fireChannelRead(wrapInboundOut(part)) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func takeOver(_ head: HTTPRequestHead, key: String, handlers: [any ChannelHandler], context: ChannelHandlerContext) {
        var headers: HTTPHeaders = ["upgrade": "websocket", "connection": "Upgrade", "sec-websocket-accept": WebSocketFrames.accept(key: key)]
        if let requestID = head.headers.first(name: InternalHeader.requestID) { headers.add(name: InternalHeader.requestID, value: requestID) }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .switchingProtocols, headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        do {
            let pipeline = context.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            pipeline.removeHandler(try pipeline.handler(type: HTTPResponseEncoder.self), promise: nil)
            FrontedHTTP1Channel.removeUpgrader(from: pipeline)
            // Right after the HTTP decoder, which hands them whatever followed the handshake
            // when it leaves (a tick later: it is still decoding this request).
            try pipeline.addHandlers(handlers, position: .after(decoder))
            pipeline.removeHandler(decoder, promise: nil)
            pipeline.removeHandler(context: context, promise: nil)
        } catch {
            context.close(promise: nil)
        }
    }
}
