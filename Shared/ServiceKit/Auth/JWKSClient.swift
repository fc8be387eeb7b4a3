import AsyncHTTPClient
import Foundation
import JWTKit

/// Where public keys come from: live, auth-svc's `/.well-known/jwks.json` over the internal
/// client; in tests, a closure returning a key set made in the test.
public struct JWKSClient: Sendable {
    public var fetch: @Sendable () async throws -> JWKS

    public init(fetch: @escaping @Sendable () async throws -> JWKS) {
        self.fetch = fetch
    }

    /// A public JWKS URL (Apple's keys) fetched with a plain HTTP client.
    public static func http(url: String, client: HTTPClient) -> JWKSClient {
        JWKSClient {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
            guard response.status == .ok else { throw ServiceError(.unavailable, "key server answered \(response.status.code)") }
            return try JSONDecoder().decode(JWKS.self, from: try await response.body.collect(upTo: 1 << 20))
        }
    }

    public static func live(client: InternalClient) -> JWKSClient {
        JWKSClient { try await client.get(.auth, "/.well-known/jwks.json", as: JWKS.self) }
    }
}
