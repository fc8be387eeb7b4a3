import Crypto
import Foundation
import ServiceKit

/// RFC 6238 time-based one-time codes (HMAC-SHA1, 30-second steps, six digits), as every
/// authenticator app computes them from the `otpauth://` URI's secret.
struct TOTP: Sendable, Equatable {
    let secret: [UInt8]
    static let period: Int64 = 30
    static let digits = 6

    /// A new random 160-bit secret (RFC 4226's recommended length).
    static func generate() -> TOTP {
        var generator = SystemRandomNumberGenerator()
        return TOTP(secret: (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    init(secret: [UInt8]) {
        self.secret = secret
    }

    init?(base32 text: String) {
        guard let bytes = Base32.decode(text) else { return nil }
        secret = bytes
    }

    var base32: String { Base32.encode(secret) }

    /// The step a time falls in.
    static func step(at time: Date) -> Int64 {
        Int64(time.timeIntervalSince1970.rounded(.down)) / period
    }

    /// RFC 4226 §5.3: HMAC of the big-endian counter, dynamically truncated, as six digits.
    func code(step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let value = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let code = String(value % 1_000_000)
        return String(repeating: "0", count: Self.digits - code.count) + code
    }

    /// The step of `code` among the current one and one either side (clock drift), if it matches.
    func matchingStep(_ code: String, at time: Date) -> Int64? {
        guard code.utf8.count == Self.digits, code.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let now = Self.step(at: time)
        return [now, now - 1, now + 1].first { ConstantTime.equals(self.code(step: $0).utf8, code.utf8) }
    }

    /// The URI authenticator apps read (Google's Key Uri Format).
    func uri(account: String, issuer: String = "Glint") -> String {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }
        return "otpauth://totp/\(encode(issuer)):\(encode(account))?secret=\(base32)&issuer=\(encode(issuer))&algorithm=SHA1"
            + "&digits=\(Self.digits)&period=\(Self.period)"
    }
}

/// RFC 4648 base32 without padding (the alphabet authenticator apps expect).
enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
