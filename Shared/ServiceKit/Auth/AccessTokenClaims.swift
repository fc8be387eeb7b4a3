import Foundation
import JWTKit

/// The access JWT's payload (API.md §1): user, app, session and expiry. Signed by auth-svc with
/// ES256; verified everywhere else against auth-svc's JWKS.
public struct AccessTokenClaims: JWTPayload, Equatable {
    public var sub: SubjectClaim
    public var app: String
    public var sid: String
    public var iat: IssuedAtClaim
    public var exp: ExpirationClaim

    public init(userID: String, appID: String, sessionID: String, issuedAt: Date, expiresAt: Date) {
        self.sub = SubjectClaim(value: userID)
        self.app = appID
        self.sid = sessionID
        self.iat = IssuedAtClaim(value: issuedAt)
        self.exp = ExpirationClaim(value: expiresAt)
    }

    /// Expiry is checked by `AccessTokenVerifier` after the signature, so that an expired but
    /// genuine token (419, refreshable) is told apart from a forged one (401).
    public func verify(using algorithm: some JWTAlgorithm) throws {}
}
