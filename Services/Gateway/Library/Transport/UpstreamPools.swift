import Contracts
import Foundation
import ServiceKit
import ServiceLifecycle

/// One connection pool per service behind the gateway, from the services' configured URLs
/// (plain `http://host:port`: services talk over the private network). Closes them after a
/// graceful shutdown.
struct UpstreamPools: Service {
    private let pools: [ServiceName: UpstreamPool]

    init(common: CommonConfiguration, maxConnectionsPerService: Int) throws {
        var pools: [ServiceName: UpstreamPool] = [:]
        for service in ServiceName.backends {
            let url = common.url(of: service)
            guard let components = URLComponents(string: url), components.scheme == "http", let host = components.host, !host.isEmpty else {
                throw ConfigurationError(variable: CommonSettings.url(of: service).name, problem: "must be an http://host:port URL, got '\(url)'")
            }
            pools[service] = UpstreamPool(host: host, port: components.port ?? 80, maxConnections: maxConnectionsPerService)
        }
        self.pools = pools
    }

    /// Every backend has one; the gateway itself has none.
    func pool(for service: ServiceName) throws -> UpstreamPool {
        guard let pool = pools[service] else { throw UpstreamError.closedBeforeAnswer }
        return pool
    }

    func run() async throws {
        try? await gracefulShutdown()
        for pool in pools.values { pool.shutdown() }
    }
}
