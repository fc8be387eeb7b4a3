import Foundation

/// Base64url without padding (RFC 7515), as JWTs and JWKs use it. Written by hand: every token
/// issued or checked passes through here, and going through `base64EncodedString` plus three
/// `replacingOccurrences` was a visible share of a refresh. Public and inlinable, so that callers
/// specialise it for what they pass (why: `ExpiringCache`).
public enum Base64URL {
    @usableFromInline static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's 6-bit value, 0xFF for none; `+` and `/` (plain base64) are taken too.
    @usableFromInline static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// Written straight into the string's storage: tokens are encoded several times per sign-in
    /// and refresh, and each copy on the way was an allocation.
    @inlinable package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        if let encoded = bytes.withContiguousStorageIfAvailable(encode) { return encoded }
        return Array(bytes).withUnsafeBufferPointer(encode)
    }

    @inlinable static func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: encodedCount(bytes.count)) { write(UnsafeRawBufferPointer(bytes), to: $0) }
    }

    /// How many characters `count` bytes encode to.
    @inlinable package static func encodedCount(_ count: Int) -> Int { (count * 4 + 2) / 3 }

    /// The encoding of `bytes` written at the start of `output` (`encodedCount` long at least), for
    /// callers that put it into a larger string; the count written.
    @inlinable package static func write(_ bytes: UnsafeRawBufferPointer, to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let alphabet = Self.alphabet
        var written = 0
        func append(_ group: UInt32, _ shift: UInt32) {
            output[written] = alphabet[Int(group >> shift & 0x3F)]
            written += 1
        }
        var index = 0
        while index + 2 < bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            append(group, 18); append(group, 12); append(group, 6); append(group, 0)
            index += 3
        }
        let left = bytes.count - index
        if left > 0 {
            let group = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            append(group, 18); append(group, 12)
            if left == 2 { append(group, 6) }
        }
        return written
    }

    @inlinable package static func decode(_ text: some StringProtocol) -> Data? {
        var utf8 = Array(text.utf8)
        while utf8.last == UInt8(ascii: "=") { utf8.removeLast() }
        guard utf8.count % 4 != 1 else { return nil }
        var output = Data(capacity: utf8.count * 3 / 4)
        var group: UInt32 = 0
        var filled = 0
        for byte in utf8 {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            group = group << 6 | UInt32(value)
            filled += 1
            if filled == 4 {
                output.append(UInt8(group >> 16 & 0xFF)); output.append(UInt8(group >> 8 & 0xFF)); output.append(UInt8(group & 0xFF))
                (group, filled) = (0, 0)
            }
        }
        if filled == 2 { output.append(UInt8(group >> 4 & 0xFF)) }
        if filled == 3 { output.append(UInt8(group >> 10 & 0xFF)); output.append(UInt8(group >> 2 & 0xFF)) }
        return output
    }
}
