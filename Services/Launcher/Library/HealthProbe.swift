import AsyncHTTPClient

/// `glint probe URL`: exit status 0 when the URL answers 200 within two seconds. Container
/// health checks use it so the runtime image needs no curl.
package enum HealthProbe {
    package static func isHealthy(_ url: String) async -> Bool {
        guard let response = try? await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(2)) else { return false }
        _ = try? await response.body.collect(upTo: 1 << 20)
        return response.status.code == 200
    }
}
