/// What the heads read from bytes share: a request (`PlainRequestHead`) and, at the gateway, a
/// service's answer (`UpstreamHead`).
public enum HTTP1Syntax {
    /// The offset just past the first blank line (`\r\n\r\n`), if it is within `limit` bytes.
    @inlinable public static func headEnd(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Int? {
        let limit = min(bytes.count, limit)
        var index = 3
        while index < limit {
            // Eight bytes at a time past those with no line feed (most of a head's bytes).
            if limit - index >= 8, !hasByte(0x0A, in: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
                continue
            }
            if bytes[index] == 0x0A, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D { return index + 1 }
            index += 1
        }
        return nil
    }

    /// Whether any of the word's eight bytes is `byte` (the classic "has zero byte" test on the
    /// word with `byte` cleared: exact for whether, not for where).
    @inlinable public static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let cleared = word ^ (ones &* UInt64(byte))
        return (cleared &- ones) & ~cleared & (ones &* 0x80) != 0
    }

    /// Whether any of the word's eight bytes is outside printable ASCII (`0x20...0x7E`): below
    /// 0x20 (controls, tab, CR) or above 0x7E (DEL, anything not ASCII).
    @inlinable public static func hasNonPrintable(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let below = (word &- ones &* 0x20) & ~word
        let above = (word &+ ones) | word
        return (below | above) & (ones &* 0x80) != 0
    }

    /// Each of `lines`' fields (`name: value\r\n` lines already checked by the reader that took
    /// them: each has a colon and ends in CRLF): its name, its value without the whitespace around
    /// it, and the whole line, CRLF included.
    @inlinable public static func forEachField(
        in lines: UnsafeRawBufferPointer,
        _ visit: (_ name: UnsafeRawBufferPointer.SubSequence, _ value: UnsafeRawBufferPointer.SubSequence, _ line: UnsafeRawBufferPointer.SubSequence)
            -> Void
    ) {
        var start = 0
        while start < lines.count {
            var colon = start
            while lines[colon] != UInt8(ascii: ":") { colon += 1 }
            var end = colon
            while lines[end] != 0x0A { end += 1 }
            var valueStart = colon + 1
            while valueStart < end - 1, lines[valueStart] == 0x20 || lines[valueStart] == 0x09 { valueStart += 1 }
            var valueEnd = end - 1
            while valueEnd > valueStart, lines[valueEnd - 1] == 0x20 || lines[valueEnd - 1] == 0x09 { valueEnd -= 1 }
            visit(lines[start..<colon], lines[valueStart..<valueEnd], lines[start...end])
            start = end + 1
        }
    }

    /// The first value of the field `name` (lowercase) among `lines`, if any.
    @inlinable public static func firstValue(of name: String, in lines: UnsafeRawBufferPointer) -> String? {
        var found: String?
        forEachField(in: lines) { fieldName, value, _ in
            if found == nil, fieldName.isASCII(caseInsensitivelyEqualTo: name) { found = String(decoding: value, as: UTF8.self) }
        }
        return found
    }

    /// A byte of an RFC 9110 token (a method, a field name).
    @inlinable public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        // ! # $ % & ' * + - . ^ _ ` | ~
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }
}
