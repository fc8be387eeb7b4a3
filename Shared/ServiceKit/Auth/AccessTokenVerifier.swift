import Contracts
import Foundation
import JWTKit

/// Verifies our access tokens against auth-svc's JWKS (cached; refetched on an unknown `kid`).
package struct AccessTokenVerifier: Sendable {
    private let keys: KeySetCache
    private let now: @Sendable () -> Date

    package init(jwks: JWKSClient, refetchInterval: Duration = .seconds(10), now: @escaping @Sendable () -> Date = Date.init) {
        self.keys = KeySetCache(jwks: jwks, refetchInterval: refetchInterval)
        self.now = now
    }

    /// The caller of a genuine token. `allowExpired` is for the refresh endpoint only, which
    /// takes the expired access token to know the session.
    package func verify(_ token: String, allowExpired: Bool = false) async throws(ServiceError) -> AuthenticatedUser {
        let claims: AccessTokenClaims
        do {
            claims = try await keys.verify(token, as: AccessTokenClaims.self)
        } catch {
            switch error {
            case .malformed: throw ServiceError(.tokenInvalid, "malformed access token")
            case .unknownKey: throw ServiceError(.tokenInvalid, "unknown signing key")
            case .invalid: throw ServiceError(.tokenInvalid, "invalid access token")
            }
        }
        guard allowExpired || claims.exp.value > now() else { throw ServiceError(.tokenExpired, "access token expired") }
        return AuthenticatedUser(userID: claims.sub.value, appID: claims.app, sessionID: claims.sid, expiresAt: claims.exp.value)
    }
}
