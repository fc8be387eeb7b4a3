import JWTKit

/// Where public keys come from: live, auth-svc's `/.well-known/jwks.json` over the internal
/// client; in tests, a closure returning a key set made in the test.
public struct JWKSClient: Sendable {
    public var fetch: @Sendable () async throws -> JWKS

    public init(fetch: @escaping @Sendable () async throws -> JWKS) {
        self.fetch = fetch
    }

    public static func live(client: InternalClient) -> JWKSClient {
        JWKSClient { try await client.get(.auth, "/.well-known/jwks.json", as: JWKS.self) }
    }
}
