import AsyncHTTPClient
import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Prometheus
import ServiceClients
import ServiceKit
import ServiceLifecycle

/// The only public port. Owns nothing persistent. One `GatewayPolicy` decides every request;
/// the routed path (`ProxyRoutes`) and the NIO transport (`Transport/`: the direct path, socket
/// splices, upstream pools) carry them.
package enum GatewayAssembly {
    /// What the gateway talks to; tests pass fakes.
    struct Dependencies: Sendable {
        var apps: AuthClient
        var upstream: Upstream
        /// auth-svc's revocation feed, for its `appsRevision`: an app's change (a key rotated,
        /// an app disabled) makes the gateway forget the keys and mounts it resolved.
        var revocations: RevocationFeed = .none
        /// The plain path's loops and the services they reach; nil (tests with a fake upstream): NIO carries everything.
        var frontLoops: FrontLoops.Settings? = nil
    }

    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) throws -> ServiceAssembly {
        let configuration = try GatewayConfiguration(reader: reader)
        // App keys are resolved rarely (cached): the shared client will do. Forwarding has its own pools.
        let http = HTTPClientService.make(maxConnectionsPerHost: 4)
        let budget = UpstreamBudget(perService: configuration.maxUpstreamConnections)
        let pools = try UpstreamPools(common: common, budget: budget, logger: logger)
        // A connection handed over goes to one process: with several chat-svc replicas, sockets are relayed.
        var handoffPath = configuration.handoffPath
        if handoffPath != nil, common.urls(of: .chat).count > 1 {
            logger.warning("socket handoff is off: chat-svc has several replicas, so sockets are relayed to them")
            handoffPath = nil
        }
        let dependencies = Dependencies(
            // The gateway keeps no users: nothing announces changes to it.
            apps: .live(InternalClient(http: http.client, configuration: common, timeout: .seconds(5)), changes: LocalChangeCounter()),
            upstream: .live(
                pools: pools, timeout: .seconds(Int64(configuration.upstreamTimeoutSeconds)), handoff: handoffPath.map(SocketHandoffSender.init)),
            // A long poll: auth-svc answers within its window (8 s), so the call may take that long.
            revocations: .live(client: InternalClient(http: http.client, configuration: common)),
            frontLoops: try FrontLoops.Settings(common: common, budget: budget, pools: pools)
        )
        return assemble(common: common, configuration: configuration, dependencies: dependencies, logger: logger, services: [http, pools])
    }

    static func assemble(
        common: CommonConfiguration, configuration: GatewayConfiguration, dependencies: Dependencies,
        logger: Logger, services: [any Service] = []
    ) -> ServiceAssembly {
        let registry = PrometheusCollectorRegistry()
        // HEAD on its own GET routes too (the proxied paths forward HEAD as it came).
        let router = Router(context: GlintRequestContext.self, options: .autoGenerateHeadEndpoints)
        let metrics = RequestMetrics(registry: registry)
        ServiceApplication.addStandardMiddleware(to: router, metrics: metrics, accessLogLevel: .info)
        let apps = AppKeyCache(client: dependencies.apps, ttl: .seconds(configuration.appCacheSeconds))
        // The bans themselves are not the gateway's (the services refuse banned users' tokens).
        let appsWatcher = RevocationWatcher(list: RevocationList(), feed: dependencies.revocations, logger: logger, appsChanged: apps.forgetAll)
        let policy = GatewayPolicy(
            routes: .standard,
            apps: apps,
            limiter: RateLimiter(),
            configuration: configuration,
            internalSecret: common.internalSecret,
            serverName: common.service.rawValue,
            requestLog: RequestLog(settings: configuration.requestLog)
        )
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        DocumentRoutes(logger: logger).register(on: router)
        // admin-svc's: the request log and this process's lines of a request.
        let internalGroup = router.group().add(middleware: InternalSecretMiddleware(secret: common.internalSecret))
        ServiceApplication.addRequestLines(to: internalGroup, service: .gateway)
        RequestLogRoutes(log: policy.requestLog).register(on: internalGroup)
        ProxyRoutes(policy: policy, upstream: dependencies.upstream).register(on: router)
        let loops = dependencies.frontLoops.map { FrontLoops(settings: $0, policy: policy, metrics: metrics, registry: registry, logger: logger) }
        let server = FrontedHTTP1Channel.server(position: .beforeDecoding) { _, routerStarted in
            ByteFrontHandler(
                policy: policy, upstream: dependencies.upstream, loops: loops, metrics: metrics, logger: logger, routerStarted: routerStarted)
        } built: {
            loops?.setChildChannel($0)
        }
        let loopServices: [any Service] = loops.map { [$0] } ?? []
        return ServiceAssembly(
            configuration: common, logger: logger, router: router, services: services + [appsWatcher] + loopServices, server: server)
    }
}
