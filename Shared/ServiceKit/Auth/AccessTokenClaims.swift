import Foundation
import JWTKit

/// The access JWT's payload (API.md §1): user, app, session and expiry. Signed by auth-svc with
/// ES256; verified everywhere else against auth-svc's JWKS.
package struct AccessTokenClaims: JWTPayload, Equatable {
    package var sub: SubjectClaim
    package var app: String
    package var sid: String
    package var iat: IssuedAtClaim
    package var exp: ExpirationClaim

    package init(userID: String, appID: String, sessionID: String, issuedAt: Date, expiresAt: Date) {
        self.sub = SubjectClaim(value: userID)
        self.app = appID
        self.sid = sessionID
        self.iat = IssuedAtClaim(value: issuedAt)
        self.exp = ExpirationClaim(value: expiresAt)
    }

    /// Expiry is checked by `AccessTokenVerifier` after the signature, so that an expired but
    /// genuine token (419, refreshable) is told apart from a forged one (401).
    package func verify(using algorithm: some JWTAlgorithm) throws {}
}

extension AccessTokenClaims: JSONWritable {
    /// Keys sorted and dates in whole seconds toward zero, as JWTKit's encoder wrote them.
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("app"); writer.string(app)
        writer.key("exp"); writer.int(Int(exp.value.timeIntervalSince1970.rounded(.towardZero)))
        writer.key("iat"); writer.int(Int(iat.value.timeIntervalSince1970.rounded(.towardZero)))
        writer.key("sid"); writer.string(sid)
        writer.key("sub"); writer.string(sub.value)
        writer.objectEnd()
    }
}
