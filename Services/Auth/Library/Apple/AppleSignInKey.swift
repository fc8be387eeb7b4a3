import JWTKit
import ServiceKit

/// An app's Sign in with Apple key (the `.p8` Apple issues to a team): what signs the client
/// secret of the authorization-code exchange (API.md §9).
package struct AppleSignInKey: Sendable, Equatable {
    package var teamID: String
    package var keyID: String
    package var privateKeyPEM: String

    package init(teamID: String, keyID: String, privateKeyPEM: String) {
        (self.teamID, self.keyID, self.privateKeyPEM) = (teamID, keyID, privateKeyPEM)
    }

    /// Team and key ids are Apple's identifiers (letters and digits); the key an EC P-256 private key.
    func validated() throws -> AppleSignInKey {
        let isIdentifier = { (text: String) in
            (1...32).contains(text.utf8.count) && text.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
        }
        guard isIdentifier(teamID), isIdentifier(keyID) else { throw ServiceError.badRequest("Apple team id and key id are letters and digits") }
        guard (try? ES256PrivateKey(pem: privateKeyPEM)) != nil else {
            throw ServiceError.badRequest("the Apple private key must be a PEM EC P-256 key (.p8)")
        }
        return self
    }
}
