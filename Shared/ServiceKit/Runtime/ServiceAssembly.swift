import Contracts
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// A service put together but not yet serving: its router with every route registered, the
/// background services that run beside the server (outbox relays, HTTP clients), and the kind of
/// server. The executable runs it; tests run it in process, or read its routes.
package struct ServiceAssembly {
    package let configuration: CommonConfiguration
    package let logger: Logger
    package let router: ServiceApplication.Router
    package let services: [any Service]
    /// nil: every service's own, Hummingbird's HTTP/1 channel behind a `ServiceByteFront`.
    package let server: HTTPServerBuilder?

    package init(
        configuration: CommonConfiguration, logger: Logger, router: ServiceApplication.Router, services: [any Service],
        server: HTTPServerBuilder? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        self.router = router
        self.services = services
        self.server = server
    }

    /// Every method and path the router answers (`/v1/posts/{post_id}`, `**` for any rest).
    package var routes: [(method: String, path: String)] {
        router.routes.map { (method: $0.method.rawValue, path: "\($0.path)") }
    }

    package func application() -> Application<RouterResponder<GlintRequestContext>> {
        let name = configuration.service.rawValue
        let logger = self.logger
        let port = configuration.port, host = configuration.host
        let responder = router.buildResponder()
        let server =
            self.server
            ?? FrontedChannel<HTTP1Channel>.server { _, routerStarted in
                ServiceByteFront(responder: responder, logger: logger, serverName: name, routerStarted: routerStarted)
            }
        return Application(
            responder: responder,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: name),
            services: services,
            onServerRunning: { channel in
                logger.notice("\(name) listening on http://\(host):\(channel.localAddress?.port ?? port)")
            },
            logger: logger
        )
    }

    /// Starts the background services and stops them again at once, without serving: for
    /// assemblies built only to be looked at (their HTTP clients must be shut down).
    package func discard() async throws {
        let group = ServiceGroup(configuration: .init(services: services.map { .init(service: $0) }, logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
