import Contracts
import Foundation
import Logging
import ServiceKit
import ServiceLifecycle

/// Connection pools to the services behind the gateway, one per replica of each, from the
/// services' configured URLs (plain `http://host:port`: services talk over the private network).
/// Closes them after a graceful shutdown.
struct UpstreamPools: Service {
    private let replicas: [ServiceName: UpstreamReplicas]

    init(common: CommonConfiguration, budget: UpstreamBudget, logger: Logger) throws {
        var replicas: [ServiceName: UpstreamReplicas] = [:]
        for service in ServiceName.backends {
            let urls = common.urls(of: service)
            let pools = try urls.map { url in
                let address = try Self.address(url, of: service)
                return UpstreamPool(host: address.host, port: address.port, maxConnections: budget.nio(service, replicas: urls.count))
            }
            replicas[service] = UpstreamReplicas(pools: pools, urls: urls, logger: logger)
        }
        self.replicas = replicas
    }

    /// A service's configured URL as host and port.
    static func address(_ url: String, of service: ServiceName) throws -> (host: String, port: Int) {
        guard let components = URLComponents(string: url), components.scheme == "http", let host = components.host, !host.isEmpty else {
            throw ConfigurationError(variable: CommonSettings.url(of: service).name, problem: "must be http://host:port URLs, got '\(url)'")
        }
        return (host, components.port ?? 80)
    }

    /// Every backend has them; the gateway itself has none.
    func replicas(of service: ServiceName) throws -> UpstreamReplicas {
        guard let replicas = replicas[service] else { throw UpstreamError.closedBeforeAnswer }
        return replicas
    }

    func run() async throws {
        try? await gracefulShutdown()
        for service in replicas.values { service.shutdown() }
    }
}
