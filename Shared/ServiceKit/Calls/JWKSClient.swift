import AsyncHTTPClient
import Contracts
import Foundation
import JWTKit

/// Where public keys come from: live, auth-svc's signing keys over the internal client; Apple's
/// over plain HTTP; in tests, a closure returning a key set made in the test.
package struct JWKSClient: Sendable {
    package var fetch: @Sendable () async throws -> JWKS

    package init(fetch: @escaping @Sendable () async throws -> JWKS) {
        self.fetch = fetch
    }

    /// A public JWKS URL (Apple's keys) fetched with a plain HTTP client.
    package static func http(url: String, client: HTTPClient) -> JWKSClient {
        JWKSClient {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
            guard response.status == .ok else { throw ServiceError(.unavailable, "key server answered \(response.status.code)") }
            return try JSONDecoder().decode(JWKS.self, from: try await response.body.collect(upTo: 1 << 20))
        }
    }

    package static func live(client: InternalClient) -> JWKSClient {
        JWKSClient { try JWKS(try await client.call(InternalEndpoints.Auth.signingKeys)) }
    }

    /// auth-svc down: no keys, so no token verifies.
    package static let failing = JWKSClient { throw ServiceError.unavailable(.auth) }

    /// No call expected: the first one fails the running test.
    package static let unimplemented = JWKSClient { throw Unimplemented.call("JWKSClient.fetch") }
}

extension JWKS {
    /// The same keys in JWTKit's type (both are RFC 7517's JSON).
    package init(_ set: PublicKeySet) throws {
        self = try JSONDecoder().decode(JWKS.self, from: JSONEncoder().encode(set))
    }
}

extension PublicKeySet {
    package init(_ jwks: JWKS) throws {
        self = try JSONDecoder().decode(PublicKeySet.self, from: JSONEncoder().encode(jwks))
    }
}
