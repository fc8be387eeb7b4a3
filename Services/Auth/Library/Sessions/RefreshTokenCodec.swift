import Contracts
import Crypto
import Foundation
import ServiceKit

/// Refresh tokens as `<session>.<generation>.<expires at, ms>.<HMAC-SHA256>`: the token says which
/// session and which step of its rotation it is, and the MAC (auth-svc's own key) proves auth-svc
/// issued it. A session row keeps only its current generation, so a rotation rewrites one row
/// instead of adding one forever, and any earlier token of the family is still recognised as
/// genuine when it comes back (reuse) without a row per token.
///
/// Tokens issued before (32 random bytes, base64url, no dots) are "legacy": stored as their
/// SHA-256 in `refresh_token` and honoured until they expire.
struct RefreshTokenCodec: Sendable {
    struct Claims: Equatable, Sendable {
        var sessionID: String
        var generation: Int64
        var expiresAt: Int64
    }

    enum Reading: Equatable, Sendable {
        case current(Claims)
        case legacy
        case invalid
    }

    /// The MAC's state after the key: each token copies it (copy on write) instead of hashing
    /// the key's two blocks again.
    private let keyed: HMAC<SHA256>

    init(key: SymmetricKey) {
        keyed = HMAC(key: key)
    }

    func token(_ claims: Claims) -> String {
        let payload = "\(claims.sessionID).\(claims.generation).\(claims.expiresAt)"
        return payload + "." + mac(payload)
    }

    func read(_ token: String) -> Reading {
        let utf8 = token.utf8
        guard let macDot = utf8.lastIndex(of: UInt8(ascii: ".")) else { return .legacy }
        let payload = token[..<macDot]
        let parts = payload.split(separator: ".", omittingEmptySubsequences: false)
        // Compared as text: the MAC's one encoding of its bytes, so no second spelling of a token.
        guard parts.count == 3, !parts[0].isEmpty, let generation = Int64(parts[1]), let expiresAt = Int64(parts[2]),
            ConstantTime.equals(Array(mac(payload).utf8), Array(token.utf8[utf8.index(after: macDot)...]))
        else { return .invalid }
        return .current(Claims(sessionID: String(parts[0]), generation: generation, expiresAt: expiresAt))
    }

    /// The payload's MAC, base64url.
    private func mac(_ payload: some StringProtocol) -> String {
        var mac = keyed
        mac.update(data: Array(payload.utf8))
        return Base64URL.encode(mac.finalize())
    }

    /// How a legacy token is found in `refresh_token`.
    static func legacyHash(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)))
    }
}
