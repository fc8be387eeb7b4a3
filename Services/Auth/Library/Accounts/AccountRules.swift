import Contracts
import Foundation
import ServiceKit

/// Input rules of API.md §1, each failing with a 400 that says what is wrong.
enum AccountRules {
    private static let passwordSpecials = Set("$@!%*#?&".utf8)

    /// Trimmed of white space (Unicode's, as Foundation's `whitespacesAndNewlines`), one `@` with a
    /// local part of 1–64 bytes and a domain with an inner dot, no control characters or spaces.
    /// On bytes and scalars, not Foundation's string search: asked on every email check and
    /// sign-up, where Foundation's `trimmingCharacters` and `contains` were 6% of the check's CPU.
    static func email(_ raw: String) throws -> String {
        let scalars = raw.unicodeScalars
        let start = scalars.firstIndex { !isBlank($0) } ?? scalars.endIndex
        let end = scalars[start...].lastIndex { !isBlank($0) }.map(scalars.index(after:)) ?? start
        let email = start == scalars.startIndex && end == scalars.endIndex ? raw : String(scalars[start..<end])
        let bytes = email.utf8
        guard bytes.count <= 254, let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { throw ServiceError.badRequest("invalid email") }
        let local = bytes[..<at]
        let domain = bytes[bytes.index(after: at)...]
        guard (1...64).contains(local.count), !domain.contains(UInt8(ascii: "@")), domain.contains(UInt8(ascii: ".")),
            domain.first != UInt8(ascii: "."), domain.last != UInt8(ascii: "."),
            // Bytes of scalars past ASCII are all 0x80 or more: the same test as on the scalars.
            bytes.allSatisfy({ $0 > 32 && $0 != 127 })
        else { throw ServiceError.badRequest("invalid email") }
        return email
    }

    /// What Foundation's `whitespacesAndNewlines` holds: Unicode's white space and, as its table
    /// still has it, the zero-width space.
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\u{200B}"
    }

    /// 8–72 characters (bcrypt's limit) from letters, digits and `$@!%*#?&`, with at least one
    /// of each group.
    static func password(_ password: String) throws {
        let bytes = Array(password.utf8)
        let letters = bytes.contains { (65...90).contains($0) || (97...122).contains($0) }
        let digits = bytes.contains { (48...57).contains($0) }
        let specials = bytes.contains { passwordSpecials.contains($0) }
        let allowed = bytes.allSatisfy {
            (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || passwordSpecials.contains($0)
        }
        guard (8...72).contains(bytes.count), letters, digits, specials, allowed else {
            throw ServiceError.badRequest("password must be 8-72 characters with a letter, a digit and one of $@!%*#?&, and nothing else")
        }
    }

    static func nick(_ raw: String) throws -> String {
        let nick = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...30).contains(nick.count), !nick.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ServiceError.badRequest("nick must be 1-30 characters")
        }
        return nick
    }

    /// Free-text profile fields: bounded, control characters refused.
    static func text(_ value: String?, field: String, max: Int) throws -> String? {
        guard let value else { return nil }
        guard value.count <= max, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) else {
            throw ServiceError.badRequest("\(field) must be at most \(max) characters")
        }
        return value
    }

    /// The device token a join or login came with, as push-svc will take it: nil when none was
    /// sent or it is not a token (a printable word); 400 beyond 512 characters or with control
    /// characters, as before.
    static func deviceToken(_ value: String?) throws -> String? {
        guard let token = try text(value, field: "deviceToken", max: 512) else { return nil }
        return DeviceToken.isAcceptable(token) ? token : nil
    }

    static func hashTags(_ tags: [String]?) throws -> [String]? {
        guard let tags else { return nil }
        guard tags.count <= 20, tags.allSatisfy({ (1...30).contains($0.count) }) else {
            throw ServiceError.badRequest("hashTags: at most 20 tags of 1-30 characters")
        }
        return tags
    }

    static func userID(_ id: String) throws -> String {
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid user id") }
        return id
    }
}
