import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceKit
import SocketIO

/// `/socket.io/` for both transports: long-polling through the router, WebSocket on the
/// connection itself (`EngineUpgradeHandler`). Only the gateway may open sockets (it presents the internal secret);
/// the protocol-test configuration has no secret.
struct SocketEndpoint<App: SocketApplication>: Sendable {
    let engine: EngineServer<SocketServer<App>>
    let secret: String?

    static var path: String { "/socket.io" }

    init(app: App, configuration: EngineConfiguration, secret: String?, logger: Logger) {
        engine = EngineServer(
            configuration: configuration, handler: SocketServer(app: app, configuration: configuration, logger: logger), logger: logger)
        self.secret = secret
    }

    func register<Context: RequestContext>(_ router: some RouterMethods<Context>) {
        for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch, .options] {
            router.on(RouterPath(Self.path), method: method) { request, _ in
                await engine.respond(to: request, handshake: Self.handshake(request.headers))
            }
        }
    }

    /// WebSockets are taken over by the engine on their connection's first request
    /// (`EngineUpgradeHandler`); everything else is Hummingbird's.
    var serverBuilder: HTTPServerBuilder {
        FrontedHTTP1Channel.server { [self] _, routerStarted in
            EngineUpgradeHandler(routerStarted: routerStarted, accept: accept)
        }
    }

    /// A connection the gateway handed over (`SocketHandoff`) with the request it read: the same
    /// handlers as one of chat-svc's own connections, without Hummingbird behind them (a
    /// request the engine does not take is answered 400 there).
    func adopt(descriptor: Int32, request: [UInt8]) {
        ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(HTTPResponseEncoder())
                    try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
                    try pipeline.addHandler(EngineUpgradeHandler(routerStarted: nil, accept: accept))
                }
            }
            .withConnectedSocket(descriptor)
            .whenSuccess { channel in channel.pipeline.fireChannelRead(ByteBuffer(bytes: request)) }
    }

    /// The engine's handlers for a WebSocket handshake on `/socket.io/` that carries the secret.
    private func accept(_ head: HTTPRequestHead, eventLoop: any EventLoop) -> [any ChannelHandler]? {
        guard URI(head.uri).path.hasPrefix(Self.path) else { return nil }
        let fields = HTTPFields(head.headers)
        if let secret, !InternalSecretMiddleware.carriesSecret(fields, secret.utf8) { return nil }
        return engine.webSocket(uri: head.uri, handshake: Self.handshake(fields), eventLoop: eventLoop)
    }

    /// The app the gateway resolved from `SeSACKey`, and the `Authorization` token.
    static func handshake(_ headers: HTTPFields) -> EngineHandshake {
        EngineHandshake(appID: InternalSecretMiddleware.appID(in: headers), token: AccessTokenMiddleware.token(fromHeader: headers[.authorization]))
    }
}
