/// JSON read byte by byte, where `JSONDecoder` (its containers, an error thrown for every type
/// tried) would cost more than the work around it: the lists and small objects the stores keep in
/// TEXT columns, read on every row, and an export's lines, read by the million on an import. It
/// reads what its caller asks for, in order, and fails (nil; `take`, false) at anything else; a
/// column's caller then decodes the text with `JSONDecoder`, an import refuses the line.
package struct JSONScanner {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index = 0

    @inlinable init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// What `value` reads of the whole text; nil when it fails or anything but whitespace follows.
    @inlinable package static func read<Value>(_ text: String, _ value: (inout JSONScanner) -> Value?) -> Value? {
        var text = text
        return text.withUTF8 { read($0, value) }
    }

    @inlinable package static func read<Value>(_ bytes: UnsafeBufferPointer<UInt8>, _ value: (inout JSONScanner) -> Value?) -> Value? {
        var scanner = JSONScanner(bytes)
        guard let read = value(&scanner), scanner.isAtEnd else { return nil }
        return read
    }

    @inlinable var isAtEnd: Bool {
        mutating get {
            skipSpace()
            return index == bytes.count
        }
    }

    /// The next byte after any whitespace, not taken; nil at the end.
    @inlinable package mutating func peek() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Steps over `character` (after any whitespace) if it is next.
    @inlinable package mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// Steps over `word` (`null`, `true`, `false`) if it is next.
    @inlinable package mutating func take(word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + count]) }) else { return false }
        index += count
        return true
    }

    /// A string, its escapes decoded. Text without escapes, as the stores write it, is cut
    /// straight out of the bytes.
    @inlinable package mutating func string() -> String? {
        guard take("\"") else { return nil }
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            case UInt8(ascii: "\\"):
                return escapedString(from: start)
            case ..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    /// The rest of a string from its first escape on; `start` is where its text began.
    @usableFromInline mutating func escapedString(from start: Int) -> String? {
        var text = ""
        var run = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                text += String(decoding: UnsafeBufferPointer(rebasing: bytes[run..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            text += String(decoding: UnsafeBufferPointer(rebasing: bytes[run..<index]), as: UTF8.self)
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
                    guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                    index += 2
                    guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(unit) else { return nil }
                text.unicodeScalars.append(scalar)
            default: return nil
            }
            run = index
        }
        return nil
    }

    @usableFromInline mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count,
            bytes[index..<index + 4].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) })
        else { return nil }
        defer { index += 4 }
        return UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self), radix: 16)
    }

    /// A number's text as it stands, and whether it is integral (no fraction, no exponent). Its
    /// value is the caller's to read, as an `Int`, an `Int64` or a `Double`.
    @inlinable package mutating func number() -> (text: String, integral: Bool)? {
        guard let first = peek(), first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
        let start = index
        var integral = true
        scan: while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"): break
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): integral = false
            default: break scan
            }
            index += 1
        }
        return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self), integral)
    }

    @inlinable package mutating func integer() -> Int? {
        guard let number = number(), number.integral else { return nil }
        return Int(number.text)
    }

    /// A list whose elements `element` reads.
    @inlinable package mutating func list<Element>(_ element: (inout JSONScanner) -> Element?) -> [Element]? {
        guard take("[") else { return nil }
        var elements: [Element] = []
        if take("]") { return elements }
        repeat {
            guard let next = element(&self) else { return nil }
            elements.append(next)
        } while take(",")
        return take("]") ? elements : nil
    }

    /// An object, each member's value read by `member` given its key (false: the object is refused).
    @inlinable package mutating func object(_ member: (String, inout JSONScanner) -> Bool) -> Bool {
        guard take("{") else { return false }
        if take("}") { return true }
        repeat {
            guard let key = string(), take(":"), member(key, &self) else { return false }
        } while take(",")
        return take("}")
    }

    @inlinable mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
