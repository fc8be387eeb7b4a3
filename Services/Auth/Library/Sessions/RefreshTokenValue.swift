import Contracts
import Crypto
import Foundation
import ServiceKit

/// Opaque refresh tokens: 32 random bytes, base64url on the wire, SHA-256 hex at rest.
enum RefreshTokenValue {
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func hash(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)))
    }
}
