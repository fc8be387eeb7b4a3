import NIOCore

/// JSON written straight into a `ByteBuffer`, for the answers every app asks for most (feeds,
/// posts): `JSONEncoder` reaches each value through `Codable`'s containers, which cost more than
/// the database read behind them. The output is byte for byte what `JSONEncoder` with
/// `.sortedKeys` and `.withoutEscapingSlashes` writes (a test holds it to that), so writers list
/// their keys in sorted order.
package struct JSONWriter {
    /// Bytes gathered in an array (appending a byte there is a store; on a `ByteBuffer` it is a
    /// uniqueness check and a bounds check each) and copied into a buffer once at the end.
    private var output: [UInt8] = []
    /// A value was just written: the next key or element needs a comma first.
    private var pendingComma = false

    package init(capacity: Int = 4096) {
        output.reserveCapacity(capacity)
    }

    package var buffer: ByteBuffer { ByteBuffer(bytes: output) }
    /// What was written, as UTF-8.
    package var bytes: [UInt8] { output }

    package mutating func objectStart() { separate(); output.append(UInt8(ascii: "{")) }
    package mutating func objectEnd() { output.append(UInt8(ascii: "}")); pendingComma = true }
    package mutating func arrayStart() { separate(); output.append(UInt8(ascii: "[")) }
    package mutating func arrayEnd() { output.append(UInt8(ascii: "]")); pendingComma = true }

    /// A key of plain ASCII that needs no escaping (our wire names).
    package mutating func key(_ name: StaticString) {
        separate()
        output.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { output.append(contentsOf: $0) }
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
    }

    /// A key read from a schema (a column's name), escaped as any string is.
    package mutating func key(_ name: String) {
        string(name)
        output.append(UInt8(ascii: ":"))
        pendingComma = false
    }

    /// Ends a JSON line: the next value starts a new one.
    package mutating func newline() {
        output.append(UInt8(ascii: "\n"))
        pendingComma = false
    }

    package mutating func null() {
        separate()
        output.append(contentsOf: "null".utf8)
        pendingComma = true
    }

    package mutating func string(_ value: String) {
        separate()
        output.append(UInt8(ascii: "\""))
        value.withBorrowedUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte)
                start = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        output.append(UInt8(ascii: "\""))
        pendingComma = true
    }

    package mutating func int(_ value: Int64) {
        separate()
        output.append(contentsOf: String(value).utf8)
        pendingComma = true
    }

    package mutating func int(_ value: Int) {
        separate()
        output.append(contentsOf: String(value).utf8)
        pendingComma = true
    }

    /// As `JSONEncoder`: the shortest round-trip form without a trailing `.0` (`127`, `1e+16`).
    package mutating func double(_ value: Double) {
        separate()
        let text = value.description
        output.append(contentsOf: (text.hasSuffix(".0") ? String(text.dropLast(2)) : text).utf8)
        pendingComma = true
    }

    package mutating func bool(_ value: Bool) {
        separate()
        output.append(contentsOf: (value ? "true" : "false").utf8)
        pendingComma = true
    }

    package mutating func array<Element: JSONWritable>(_ values: [Element]) {
        arrayStart()
        for value in values { value.write(to: &self) }
        arrayEnd()
    }

    private mutating func separate() {
        if pendingComma { output.append(UInt8(ascii: ",")) }
        pendingComma = false
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private mutating func escape(_ byte: UInt8) {
        let backslash = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), backslash: output += [backslash, byte]
        case 0x08: output += [backslash, UInt8(ascii: "b")]
        case 0x09: output += [backslash, UInt8(ascii: "t")]
        case 0x0A: output += [backslash, UInt8(ascii: "n")]
        case 0x0C: output += [backslash, UInt8(ascii: "f")]
        case 0x0D: output += [backslash, UInt8(ascii: "r")]
        default:
            output += [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0x0F)]]
        }
    }
}

/// A wire type that writes itself with `JSONWriter` (its keys sorted, optional keys left out
/// when nil, as its `Encodable` conformance does).
package protocol JSONWritable {
    func write(to writer: inout JSONWriter)
}

extension String: JSONWritable {
    package func write(to writer: inout JSONWriter) { writer.string(self) }
}

/// Lists of writable values: the feed's string lists, and the id lists bound as one JSON
/// parameter in SQL (`JSONText.encode`).
extension Array: JSONWritable where Element: JSONWritable {
    package func write(to writer: inout JSONWriter) { writer.array(self) }
}
