import AsyncHTTPClient
import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Prometheus
import ServiceKit
import ServiceLifecycle

/// The only public port. Owns nothing persistent.
package enum GatewayService {
    /// What the gateway talks to; tests pass fakes.
    struct Dependencies: Sendable {
        var apps: AppDirectory.Client
        var upstream: Upstream
    }

    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) throws -> ServiceAssembly {
        let configuration = try GatewayConfiguration(reader: reader)
        // App keys are resolved rarely (cached): the shared client will do. Forwarding has its own pools.
        let http = HTTPClientService.make(maxConnectionsPerHost: 4)
        let pools = try UpstreamPools(common: common, maxConnectionsPerService: configuration.maxUpstreamConnections)
        let dependencies = Dependencies(
            apps: .live(InternalClient(http: http.client, configuration: common, timeout: .seconds(5))),
            upstream: .live(pools: pools, timeout: .seconds(Int64(configuration.upstreamTimeoutSeconds)))
        )
        return assemble(common: common, configuration: configuration, dependencies: dependencies, logger: logger, services: [http, pools])
    }

    static func assemble(
        common: CommonConfiguration, configuration: GatewayConfiguration, dependencies: Dependencies,
        logger: Logger, services: [any Service] = []
    ) -> ServiceAssembly {
        let registry = PrometheusCollectorRegistry()
        let router = Router(context: GlintRequestContext.self)
        let metrics = RequestMetrics(registry: registry)
        ServiceApplication.addStandardMiddleware(to: router, metrics: metrics, accessLogLevel: .info)
        let proxy = ProxyController(
            routes: .standard,
            apps: AppDirectory(client: dependencies.apps, ttl: .seconds(configuration.appCacheSeconds)),
            limiter: RateLimiter(),
            upstream: dependencies.upstream,
            configuration: configuration,
            common: common
        )
        router.get("/health") { _, _ in await suiteHealth(dependencies.upstream) }
        router.get("/event-application") { request, context in
            try await proxy.attendancePage(request, context: context)
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        for method in [HTTPRequest.Method.get, .head, .post, .put, .delete, .patch, .options] {
            // `**` needs at least one segment; "/" is routed too so that it also gets a dialect 444.
            for path in ["/", "**"] {
                router.on(RouterPath(path), method: method) { request, context in try await proxy.handle(request, context: context) }
            }
        }
        let server = GatewayChannel.server { DirectForwardHandler(proxy: proxy, metrics: metrics, logger: logger, routerStarted: $0) }
        return ServiceAssembly(configuration: common, logger: logger, router: router, services: services, server: server)
    }

    /// Every backend's health, asked concurrently; 503 unless all are ok.
    static func suiteHealth(_ upstream: Upstream) async -> Response {
        let reports = await withTaskGroup(of: (ServiceName, ServiceHealth).self) { group in
            for service in ServiceName.backends {
                group.addTask { (service, await upstream.health(service)) }
            }
            var reports: [String: ServiceHealth] = [ServiceName.gateway.rawValue: ServiceHealth(status: "ok", pid: getpid())]
            for await (service, health) in group { reports[service.rawValue] = health }
            return reports
        }
        let healthy = reports.values.allSatisfy { $0.status == "ok" }
        return JSONCoding.response(status: healthy ? .ok : .serviceUnavailable, body: SuiteHealth(status: healthy ? "ok" : "degraded", services: reports))
    }
}
