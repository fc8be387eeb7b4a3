import Contracts
import Foundation
import JWTKit

/// Verifies our access tokens against auth-svc's JWKS (cached; refetched on an unknown `kid`).
/// A token verified once is remembered until its `exp`: an app sends the same token on every
/// request for its lifetime, and checking its ES256 signature again (on the key set's actor) was
/// a fixed cost of every request.
package struct AccessTokenVerifier: Sendable {
    private let keys: KeySetCache
    // Tokens seen in the last access lifetime or so (and, in auth-svc, those it signed): one per
    // active session.
    private let verified = ExpiringCache<String, AuthenticatedUser>(maxEntries: 50_000)
    private let now: @Sendable () -> Date
    /// The bans in force: a banned user's genuine token is refused (`banned`) from the moment the
    /// list hears of the ban.
    private let revocations: RevocationList

    package init(
        jwks: JWKSClient, revocations: RevocationList = RevocationList(), refetchInterval: Duration = .seconds(10),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.keys = KeySetCache(jwks: jwks, refetchInterval: refetchInterval)
        self.revocations = revocations
        self.now = now
    }

    /// A token this process has just signed (auth-svc): genuine without a check. Kept `grace`
    /// past its `exp`, as a refresh presents the token when it has expired, and its ES256 check
    /// was a fifth of a refresh's work.
    package func remember(_ token: String, for user: AuthenticatedUser, grace: Duration) {
        let lifetime = user.expiresAt.timeIntervalSince(now())
        verified.store(user, for: token, ttl: .milliseconds(Int64(max(0, lifetime) * 1000)) + grace)
    }

    /// The caller of a genuine token. `allowExpired` is for the refresh endpoint only, which
    /// takes the expired access token to know the session.
    package func verify(_ token: String, allowExpired: Bool = false) async throws(ServiceError) -> AuthenticatedUser {
        if let user = verified.value(for: token) {
            guard allowExpired || user.expiresAt > now() else { throw ServiceError(.tokenExpired, "access token expired") }
            return try admitted(user)
        }
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
        let user = AuthenticatedUser(
            userID: claims.sub.value, appID: claims.app, sessionID: claims.sid, expiresAt: claims.exp.value, issuedAt: claims.iat.value)
        let lifetime = user.expiresAt.timeIntervalSince(now())
        if lifetime > 0 { verified.store(user, for: token, ttl: .milliseconds(Int64(lifetime * 1000))) }
        guard allowExpired || lifetime > 0 else { throw ServiceError(.tokenExpired, "access token expired") }
        return try admitted(user)
    }

    private func admitted(_ user: AuthenticatedUser) throws(ServiceError) -> AuthenticatedUser {
        switch revocations.refusal(of: user) {
        case .banned: throw ServiceError(.banned, "this account is suspended")
        case .some: throw ServiceError(.tokenInvalid, "signed out everywhere")
        case nil: return user
        }
    }
}
