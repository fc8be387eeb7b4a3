import Foundation
import ServiceKit

/// Makes access tokens for a session.
struct TokenIssuer: Sendable {
    let signer: AccessTokenSigner
    let accessLifetime: TimeInterval

    func accessToken(userID: String, appID: String, sessionID: String, now: Date = Date()) throws -> String {
        try signer.sign(AccessTokenClaims(
            userID: userID, appID: appID, sessionID: sessionID, issuedAt: now, expiresAt: now.addingTimeInterval(accessLifetime)
        ))
    }
}
