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

    /// Made in one string: the payload, a dot, the MAC encoded straight into it.
    func token(_ claims: Claims) -> String {
        var payload = "\(claims.sessionID).\(claims.generation).\(claims.expiresAt)"
        return payload.withUTF8 { payload in
            String(unsafeUninitializedCapacity: payload.count + 1 + Self.macCount) { output in
                _ = output.initialize(fromContentsOf: payload)
                output[payload.count] = UInt8(ascii: ".")
                return payload.count + 1 + writeMAC(of: payload, to: UnsafeMutableBufferPointer(rebasing: output[(payload.count + 1)...]))
            }
        }
    }

    /// Read in the token's own bytes: no part copied but the session's id.
    func read(_ token: String) -> Reading {
        token.withBorrowedUTF8 { bytes in
            let dot = UInt8(ascii: ".")
            guard let macDot = bytes.lastIndex(of: dot) else { return .legacy }
            let payload = UnsafeBufferPointer(rebasing: bytes[..<macDot])
            guard let first = payload.firstIndex(of: dot), first > 0, let second = payload[(first + 1)...].firstIndex(of: dot),
                !payload[(second + 1)...].contains(dot),
                let generation = Int64(String(decoding: payload[(first + 1)..<second], as: UTF8.self)),
                let expiresAt = Int64(String(decoding: payload[(second + 1)...], as: UTF8.self)),
                macMatches(payload, bytes[(macDot + 1)...])
            else { return .invalid }
            return .current(Claims(sessionID: String(decoding: payload[..<first], as: UTF8.self), generation: generation, expiresAt: expiresAt))
        }
    }

    /// The MAC's length, base64url.
    private static let macCount = Base64URL.encodedCount(SHA256.byteCount)

    /// Compared as text, in constant time: the MAC's one encoding of its bytes, so no second
    /// spelling of a token.
    private func macMatches(_ payload: UnsafeBufferPointer<UInt8>, _ presented: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.macCount) { expected in
            ConstantTime.equals(expected[..<writeMAC(of: payload, to: expected)], presented)
        }
    }

    /// The payload's MAC, base64url, written at the start of `output`; the count written.
    private func writeMAC(of payload: UnsafeBufferPointer<UInt8>, to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var mac = keyed
        mac.update(data: UnsafeRawBufferPointer(payload))
        return mac.finalize().withUnsafeBytes { Base64URL.write($0, to: output) }
    }

    /// How a legacy token is found in `refresh_token`.
    static func legacyHash(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)))
    }
}
