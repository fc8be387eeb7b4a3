import NIOCore

/// JSON written straight into a `ByteBuffer`, for the answers every app asks for most (feeds,
/// posts): `JSONEncoder` reaches each value through `Codable`'s containers, which cost more than
/// the database read behind them. The output is byte for byte what `JSONEncoder` with
/// `.sortedKeys` and `.withoutEscapingSlashes` writes (a test holds it to that), so writers list
/// their keys in sorted order.
package struct JSONWriter {
    package private(set) var buffer: ByteBuffer
    /// A value was just written: the next key or element needs a comma first.
    private var pendingComma = false

    package init(capacity: Int = 4096) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    package mutating func objectStart() { separate(); buffer.writeInteger(UInt8(ascii: "{")) }
    package mutating func objectEnd() { buffer.writeInteger(UInt8(ascii: "}")); pendingComma = true }
    package mutating func arrayStart() { separate(); buffer.writeInteger(UInt8(ascii: "[")) }
    package mutating func arrayEnd() { buffer.writeInteger(UInt8(ascii: "]")); pendingComma = true }

    /// A key of plain ASCII that needs no escaping (our wire names).
    package mutating func key(_ name: StaticString) {
        separate()
        buffer.writeInteger(UInt8(ascii: "\""))
        buffer.writeStaticString(name)
        buffer.writeStaticString("\":")
    }

    package mutating func string(_ value: String) {
        separate()
        buffer.writeInteger(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index]))
                escape(byte)
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start...]))
        }
        buffer.writeInteger(UInt8(ascii: "\""))
        pendingComma = true
    }

    package mutating func int(_ value: Int) {
        separate()
        buffer.writeString(String(value))
        pendingComma = true
    }

    /// As `JSONEncoder`: the shortest round-trip form without a trailing `.0` (`127`, `1e+16`).
    package mutating func double(_ value: Double) {
        separate()
        let text = value.description
        buffer.writeString(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
        pendingComma = true
    }

    package mutating func bool(_ value: Bool) {
        separate()
        buffer.writeStaticString(value ? "true" : "false")
        pendingComma = true
    }

    package mutating func array<Element: JSONWritable>(_ values: [Element]) {
        arrayStart()
        for value in values { value.write(to: &self) }
        arrayEnd()
    }

    private mutating func separate() {
        if pendingComma { buffer.writeInteger(UInt8(ascii: ",")) }
        pendingComma = false
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
        case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
        case 0x08: buffer.writeStaticString("\\b")
        case 0x09: buffer.writeStaticString("\\t")
        case 0x0A: buffer.writeStaticString("\\n")
        case 0x0C: buffer.writeStaticString("\\f")
        case 0x0D: buffer.writeStaticString("\\r")
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            buffer.writeStaticString("\\u00")
            buffer.writeInteger(hex[Int(byte >> 4)])
            buffer.writeInteger(hex[Int(byte & 0x0F)])
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
