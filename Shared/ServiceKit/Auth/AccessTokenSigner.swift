import Foundation
import JWTKit

/// Signs access tokens with one ES256 key. The header is encoded with sorted keys so its segment
/// is the same for every token of a key (`{"alg":"ES256","kid":…,"typ":"JWT"}`), as API.md asks.
package struct AccessTokenSigner: Sendable {
    package let keyID: String
    private let keys: JWTKeyCollection

    package init(key: ES256PrivateKey, keyID: String) async {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .integerSecondsSince1970
        let serializer = DefaultJWTSerializer(jsonEncoder: encoder)
        let keys = JWTKeyCollection(defaultJWTSerializer: serializer)
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: keyID), serializer: serializer)
        self.keys = keys
        self.keyID = keyID
    }

    package func sign(_ claims: AccessTokenClaims) async throws -> String {
        try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }

    /// The public half as a JWKS, for `/.well-known/jwks.json`.
    package static func jwks(for key: ES256PrivateKey, keyID: String) -> JWKS {
        let parameters = key.publicKey.parameters
        return JWKS(keys: [
            JWK.ecdsa(.es256, identifier: JWKIdentifier(string: keyID), x: parameters?.x, y: parameters?.y, curve: .p256),
        ])
    }
}
