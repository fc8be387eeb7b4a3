import Contracts
import Crypto
import Foundation
import JWTKit
import ServiceKit

/// auth-svc's ES256 key: read from the configured PEM file, or generated on first start and kept
/// there (owner-readable only) so tokens survive restarts. The key id is derived from the public
/// key, so a replaced key gets a new `kid` and verifiers refetch the JWKS.
struct SigningKey: Sendable {
    let privateKey: ES256PrivateKey
    let keyID: String

    static func loadOrCreate(at path: String) throws -> SigningKey {
        if FileManager.default.fileExists(atPath: path) {
            let pem = try String(contentsOfFile: path, encoding: .utf8)
            return try SigningKey(privateKey: ES256PrivateKey(pem: pem))
        }
        let key = ES256PrivateKey()
        try DataDirectory.ensure((path as NSString).deletingLastPathComponent)
        try DataDirectory.writePrivate(Data(key.pemRepresentation.utf8), to: path)
        return try SigningKey(privateKey: key)
    }

    init(privateKey: ES256PrivateKey) throws {
        self.privateKey = privateKey
        guard let parameters = privateKey.publicKey.parameters else {
            throw JWTError.generic(identifier: "ecdsa", reason: "no public key parameters")
        }
        let digest = SHA256.hash(data: Data((parameters.x + "." + parameters.y).utf8))
        keyID = Hex.encode(digest.prefix(8))
    }

    var jwks: JWKS { AccessTokenSigner.jwks(for: privateKey, keyID: keyID) }
}
