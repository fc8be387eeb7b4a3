import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import ServiceKit
import SocketIO

/// `/socket.io/` for both transports: long-polling through the router, WebSocket through the
/// server's upgrade hook. Only the gateway may open sockets (it presents the internal secret);
/// the protocol-test configuration has no secret.
struct SocketEndpoint<App: SocketApplication>: Sendable {
    let engine: EngineServer<SocketServer<App>>
    let secret: String?

    static var path: String { "/socket.io" }

    init(app: App, configuration: EngineConfiguration, secret: String?, logger: Logger) {
        engine = EngineServer(configuration: configuration, handler: SocketServer(app: app, configuration: configuration, logger: logger), logger: logger)
        self.secret = secret
    }

    func register<Context: RequestContext>(_ router: some RouterMethods<Context>) {
        for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch, .options] {
            router.on(RouterPath(Self.path), method: method) { request, _ in
                await engine.respond(to: request, handshake: Self.handshake(request.headers))
            }
        }
    }

    var serverBuilder: HTTPServerBuilder {
        .http1WebSocketUpgrade(configuration: .init(ws: .init(maxFrameSize: engine.configuration.maxPayload, autoPing: .disabled))) {
            [engine, secret] head, _, _ in
            guard head.path.map({ URI($0).path.hasPrefix(Self.path) }) == true else { return .dontUpgrade }
            if let secret, !InternalSecretMiddleware.carriesSecret(head.headerFields, secret.utf8) { return .dontUpgrade }
            return engine.upgrade(head, handshake: Self.handshake(head.headerFields))
        }
    }

    /// The app the gateway resolved from `SeSACKey`, and the `Authorization` token.
    static func handshake(_ headers: HTTPFields) -> EngineHandshake {
        EngineHandshake(appID: InternalSecretMiddleware.appID(in: headers), token: AccessTokenMiddleware.token(fromHeader: headers[.authorization]))
    }
}
