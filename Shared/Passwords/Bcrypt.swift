import ServiceKit

/// bcrypt (`$2b$`), the password hash of API.md §1. Verifies `$2a$`/`$2b$`/`$2y$` hashes.
/// Passwords over 72 bytes are refused by our validation, so no silent truncation happens.
package enum Bcrypt {
    static let magic: [UInt8] = Array("OrpheanBeholderScryDoubt".utf8)

    package static func hash(_ password: String, cost: Int, salt: [UInt8]? = nil) -> String {
        precondition((4...31).contains(cost))
        var generator = SystemRandomNumberGenerator()
        let salt = salt ?? (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let digest = raw(password: Array(password.utf8), salt: salt, cost: cost)
        let costText = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$2b$\(costText)$" + BcryptBase64.encode(salt) + BcryptBase64.encode(digest)
    }

    package static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: true)
        guard parts.count == 3, ["2a", "2b", "2y"].contains(parts[0]), let cost = Int(parts[1]), (4...31).contains(cost),
            parts[2].count == 53, let salt = BcryptBase64.decode(parts[2].prefix(22), count: 16)
        else { return false }
        let digest = raw(password: Array(password.utf8), salt: salt, cost: cost)
        let expected = "$\(parts[0])$\(parts[1])$" + BcryptBase64.encode(salt) + BcryptBase64.encode(digest)
        return ConstantTime.equals(expected.utf8, stored.utf8)
    }

    /// The 23 output bytes of Eksblowfish over the NUL-terminated password (72 bytes at most).
    private static func raw(password: [UInt8], salt: [UInt8], cost: Int) -> [UInt8] {
        let key = Array((password + [0]).prefix(72))
        var blowfish = Blowfish()
        blowfish.expand(key: key, salt: salt)
        for _ in 0..<(1 << cost) {
            blowfish.expand(key: key, salt: nil)
            blowfish.expand(key: salt, salt: nil)
        }
        var blocks = stride(from: 0, to: 24, by: 4).map { index in
            magic[index..<index + 4].reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
        }
        for _ in 0..<64 { blowfish.encrypt(&blocks) }
        let bytes = blocks.flatMap { word in [UInt8(word >> 24), UInt8((word >> 16) & 0xFF), UInt8((word >> 8) & 0xFF), UInt8(word & 0xFF)] }
        return Array(bytes.prefix(23))
    }
}
