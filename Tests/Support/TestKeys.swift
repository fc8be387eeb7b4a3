import Foundation
import JWTKit
import ServiceKit

/// An ES256 key pair as auth-svc would have, for signing test tokens and serving a test JWKS.
package struct TestKeys: Sendable {
    package let key: ES256PrivateKey
    package let keyID: String
    package let signer: AccessTokenSigner

    package static func make(keyID: String = "test-key-" + String(Int.random(in: 1000...9999))) async -> TestKeys {
        let key = ES256PrivateKey()
        return TestKeys(key: key, keyID: keyID, signer: try! AccessTokenSigner(key: key, keyID: keyID))  // a key just generated always converts
    }

    package var jwks: JWKS { AccessTokenSigner.jwks(for: key, keyID: keyID) }

    package func token(
        user: String = "user-1", app: String = "app-1", session: String = "session-1", expiresIn seconds: TimeInterval = 600
    ) async throws -> String {
        let now = Date()
        return try signer.sign(
            AccessTokenClaims(
                userID: user, appID: app, sessionID: session, issuedAt: now, expiresAt: now.addingTimeInterval(seconds)
            ))
    }
}
