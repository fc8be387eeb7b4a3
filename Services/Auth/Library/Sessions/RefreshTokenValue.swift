import Contracts
import Crypto
import Foundation
import ServiceKit

/// Opaque refresh tokens: 32 random bytes, base64url on the wire, SHA-256 hex at rest.
enum RefreshTokenValue {
    /// One draw of 32 bytes from the system's secure generator (not 32 draws of one).
    static func generate() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Base64URL.encode($0) }
    }

    static func hash(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)))
    }
}
