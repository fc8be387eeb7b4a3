import Foundation
import ServiceKit

/// Makes access tokens for a session.
struct TokenIssuer: Sendable {
    let signer: AccessTokenSigner
    let accessLifetime: TimeInterval
    /// auth-svc's own verifier, told of every token signed, so that the refresh presenting it a
    /// lifetime later need not check its signature (while it is remembered: one more lifetime).
    let verifier: AccessTokenVerifier

    func accessToken(userID: String, appID: String, sessionID: String, now: Date = Date()) throws -> String {
        let expiresAt = now.addingTimeInterval(accessLifetime)
        let token = try signer.sign(AccessTokenClaims(userID: userID, appID: appID, sessionID: sessionID, issuedAt: now, expiresAt: expiresAt))
        let user = AuthenticatedUser(
            userID: userID, appID: appID, sessionID: sessionID,
            expiresAt: Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.towardZero)),
            issuedAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.towardZero)))
        verifier.remember(token, for: user, grace: .milliseconds(Int64(accessLifetime * 1000)))
        return token
    }
}
