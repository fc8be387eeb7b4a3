import Contracts
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Prometheus
import ServiceLifecycle

/// The one bootstrap of every service, used by its executable and by its tests: request ids,
/// errors, metrics and access logs on every route; `/health` and `/metrics` open; everything else
/// behind the internal secret.
package enum ServiceApplication {
    package typealias Router = Hummingbird.Router<GlintRequestContext>
    package typealias Group = RouterGroup<GlintRequestContext>

    package static func assemble(
        configuration: CommonConfiguration,
        logger: Logger,
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        healthCheck: @escaping @Sendable () async throws -> Void = {},
        backupHealth: @escaping @Sendable () -> BackupHealth? = { nil },
        services: [any Service] = [],
        server: HTTPServerBuilder? = nil,
        openRoutes: (Router) -> Void = { _ in },
        routes: (Group) -> Void
    ) -> ServiceAssembly {
        // HEAD wherever GET is (RFC 9110 §9.3.2): the GET's status and fields, no body.
        let router = Router(context: GlintRequestContext.self, options: .autoGenerateHeadEndpoints)
        addStandardMiddleware(to: router, metrics: RequestMetrics(registry: registry), accessLogLevel: .debug)
        addHealthAndMetrics(to: router, service: configuration.service, registry: registry, check: healthCheck, backup: backupHealth)
        openRoutes(router)
        let internalGroup = router.group().add(middleware: InternalSecretMiddleware(secret: configuration.internalSecret))
        addRequestLines(to: internalGroup, service: configuration.service)
        routes(internalGroup)
        return ServiceAssembly(configuration: configuration, logger: logger, router: router, services: services, server: server)
    }

    /// Middleware order: request id first (so every log line has it), then metrics and access log
    /// (which see the final status), then error mapping (so they see mapped errors).
    package static func addStandardMiddleware(to router: Router, metrics: RequestMetrics, accessLogLevel: Logger.Level) {
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: AccessLogMiddleware(level: accessLogLevel))
        router.add(middleware: ErrorMiddleware())
    }

    /// `GET /internal/log/{request_id}`: this process's log lines of one request.
    package static func addRequestLines(to group: Group, service: ServiceName, lines: RecentLogLines = .shared) {
        group.serve(InternalEndpoints.requestLines(service)) { requestID, _, _ in
            guard requestID.utf8.count <= 64 else { throw ServiceError.badRequest("a request id is at most 64 characters") }
            return lines.lines(of: requestID)
        }
    }

    package static func addHealthAndMetrics(
        to router: Router, service: ServiceName, registry: PrometheusCollectorRegistry,
        check: @escaping @Sendable () async throws -> Void, backup: @escaping @Sendable () -> BackupHealth? = { nil }
    ) {
        let started = ContinuousClock.now
        router.get("/health") { _, context -> Response in
            let uptime = ContinuousClock.now - started
            let seconds = Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18
            do {
                try await check()
                return JSONCoding.response(
                    body: HealthReport(service: service.rawValue, status: "ok", pid: getpid(), uptimeSeconds: seconds, backup: backup()))
            } catch {
                context.logger.warning("health check failed", metadata: ["error": "\(error)"])
                return JSONCoding.response(
                    status: .serviceUnavailable,
                    body: HealthReport(service: service.rawValue, status: "failing", pid: getpid(), uptimeSeconds: seconds, backup: backup())
                )
            }
        }
        router.get("/metrics") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
            )
        }
    }
}
