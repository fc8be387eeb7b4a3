import Contracts
import Foundation
import JWTKit

/// Verifies access tokens against a cached JWKS. An unknown `kid` (auth-svc rotated its key, or
/// this process has not fetched yet) triggers one refetch, at most once per `refetchInterval`, so
/// forged kids cannot make us hammer auth-svc.
public actor AccessTokenVerifier {
    private let jwks: JWKSClient
    private let now: @Sendable () -> Date
    private let refetchInterval: Duration
    private var keys = JWTKeyCollection()
    private var knownKeyIDs: Set<String> = []
    private var lastFetch: ContinuousClock.Instant?

    public init(jwks: JWKSClient, refetchInterval: Duration = .seconds(10), now: @escaping @Sendable () -> Date = Date.init) {
        self.jwks = jwks
        self.refetchInterval = refetchInterval
        self.now = now
    }

    public func verify(_ token: String) async throws(ServiceError) -> AuthenticatedUser {
        guard token.utf8.count <= 4096, let keyID = Self.keyID(of: token) else {
            throw ServiceError(.tokenInvalid, "malformed access token")
        }
        if !knownKeyIDs.contains(keyID) {
            await refreshKeys()
            guard knownKeyIDs.contains(keyID) else { throw ServiceError(.tokenInvalid, "unknown signing key") }
        }
        let claims: AccessTokenClaims
        do {
            claims = try await keys.verify(token, as: AccessTokenClaims.self)
        } catch {
            throw ServiceError(.tokenInvalid, "invalid access token")
        }
        guard claims.exp.value > now() else { throw ServiceError(.tokenExpired, "access token expired") }
        return AuthenticatedUser(userID: claims.sub.value, appID: claims.app, sessionID: claims.sid, expiresAt: claims.exp.value)
    }

    private func refreshKeys() async {
        let clock = ContinuousClock()
        if let lastFetch, clock.now - lastFetch < refetchInterval { return }
        lastFetch = clock.now
        guard let set = try? await jwks.fetch() else { return }
        let fresh = JWTKeyCollection()
        guard (try? await fresh.add(jwks: set)) != nil else { return }
        keys = fresh
        knownKeyIDs = Set(set.keys.compactMap { $0.keyIdentifier?.string })
    }

    /// The `kid` of the JOSE header, read without trusting anything else in the token.
    static func keyID(of token: String) -> String? {
        guard let headerPart = token.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false).first,
              let data = Base64URL.decode(headerPart),
              let header = try? JSONDecoder().decode(KeyIDHeader.self, from: data)
        else { return nil }
        return header.kid
    }

    private struct KeyIDHeader: Decodable {
        var kid: String
    }
}
