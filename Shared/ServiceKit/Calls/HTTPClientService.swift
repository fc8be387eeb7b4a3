import AsyncHTTPClient
import ServiceLifecycle

/// Owns an `HTTPClient` for the life of the process: shuts it down after graceful shutdown, so
/// pooled connections close cleanly.
package struct HTTPClientService: Service {
    package let client: HTTPClient

    package init(client: HTTPClient) {
        self.client = client
    }

    /// `retryConnecting`: false gives up on a refused connection at once (a store that is gone
    /// answers its caller's request now, not at its deadline).
    package static func make(maxConnectionsPerHost: Int = 64, retryConnecting: Bool = true) -> HTTPClientService {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maxConnectionsPerHost)
        configuration.connectionPool.retryConnectionEstablishment = retryConnecting
        configuration.timeout = .init(connect: .seconds(2))
        configuration.decompression = .disabled
        // No tracer is bootstrapped; skipping the tracing hooks saves work on every request.
        configuration.tracing.tracer = nil
        return HTTPClientService(client: HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration))
    }

    package func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
