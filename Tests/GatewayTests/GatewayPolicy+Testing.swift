import ServiceClients

@testable import Gateway

extension GatewayPolicy {
    /// The standard routes, default limits and a key cache that asks no one (nothing resolves).
    static func testing(apps: AppKeyCache = AppKeyCache(client: .unimplemented, ttl: .seconds(30))) -> GatewayPolicy {
        GatewayPolicy(
            routes: .standard, apps: apps, limiter: RateLimiter(), configuration: .init(), internalSecret: "secret", serverName: "gateway",
            requestLog: RequestLog(settings: .init()))
    }
}
