import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import ServiceKit

/// How the gateway reaches services: live over pooled keep-alive connections (AsyncHTTPClient),
/// in tests any closure. Requests and responses stream; nothing is buffered whole.
struct Upstream: Sendable {
    var forward: @Sendable (ServiceName, HTTPClientRequest) async throws -> HTTPClientResponse
    var health: @Sendable (ServiceName) async -> ServiceHealth

    /// Health is asked of each service's own `/health` with a short deadline.
    static func live(http: HTTPClient, timeout: TimeAmount, baseURL: @escaping @Sendable (ServiceName) -> String) -> Upstream {
        Upstream(
            forward: { _, request in
                try await http.execute(request, timeout: timeout)
            },
            health: { service in
                do {
                    let response = try await http.execute(HTTPClientRequest(url: baseURL(service) + "/health"), timeout: .seconds(2))
                    let body = try await response.body.collect(upTo: 64 << 10)
                    let report = try JSONDecoder().decode(HealthReport.self, from: body)
                    return ServiceHealth(status: response.status.code == 200 ? report.status : "failing", pid: report.pid)
                } catch {
                    return ServiceHealth(status: "down", error: "unreachable")
                }
            }
        )
    }
}
