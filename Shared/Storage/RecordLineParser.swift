import Foundation

/// Reads one line of an export: a flat JSON object of scalars, as `AppRecords` writes them. Made
/// for this one shape because `JSONDecoder` (its containers, a thrown error for every type tried)
/// was most of an import's time; anything else — nesting, a bad escape, trailing bytes — is refused.
package struct RecordLineParser {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    /// The line's values by key; nil when it is not such an object.
    package static func parse(_ line: some DataProtocol & ContiguousBytes) -> [String: RecordValue.LineValue]? {
        line.withUnsafeBytes { bytes in
            var parser = RecordLineParser(bytes: bytes)
            return parser.object()
        }
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private mutating func object() -> [String: RecordValue.LineValue]? {
        var values: [String: RecordValue.LineValue] = [:]
        guard take(UInt8(ascii: "{")) else { return nil }
        if take(UInt8(ascii: "}")) { return end() ? values : nil }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), let value = value() else { return nil }
            values[key] = value
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) && end() ? values : nil
    }

    private mutating func value() -> RecordValue.LineValue? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        default: return number()
        }
    }

    private mutating func number() -> RecordValue.LineValue? {
        let start = index
        guard bytes[index] == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        var fractional = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                fractional = true
            } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) && byte != UInt8(ascii: "-") && byte != UInt8(ascii: "+") {
                break
            }
            index += 1
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if !fractional, let integer = Int64(text) { return .integer(integer) }
        return Double(text).map { .real($0) }
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var start = index
        var text = ""
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                text += String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            text += String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            guard index < bytes.count else { return nil }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""): text += "\""
            case UInt8(ascii: "\\"): text += "\\"
            case UInt8(ascii: "/"): text += "/"
            case UInt8(ascii: "b"): text += "\u{08}"
            case UInt8(ascii: "f"): text += "\u{0C}"
            case UInt8(ascii: "n"): text += "\n"
            case UInt8(ascii: "r"): text += "\r"
            case UInt8(ascii: "t"): text += "\t"
            case UInt8(ascii: "u"):
                guard var unit = hex4() else { return nil }
                // A character outside the BMP comes as a surrogate pair.
                if (0xD800..<0xDC00).contains(unit) {
                    guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(unit) else { return nil }
                text.unicodeScalars.append(scalar)
            default: return nil
            }
            start = index
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count,
            bytes[index..<index + 4].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) })
        else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self)
        index += 4
        return UInt32(text, radix: 16)
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + count]) }) else { return false }
        index += count
        return true
    }

    /// Takes `byte` after any whitespace.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func end() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}
