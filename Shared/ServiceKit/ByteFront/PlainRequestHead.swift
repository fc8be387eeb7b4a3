import NIOCore

/// A request head read straight from a connection's bytes (the gateway's `ByteFrontHandler`, a service's `ServiceByteFront`), in the plain form
/// only: `METHOD SP origin-form-target SP HTTP/1.1`, then `name: value` lines of printable ASCII,
/// every line ended by CRLF, no folding. Anything else is not this reader's to judge: NIO's parser
/// takes the connection and answers it (or refuses it) in full. Not copyable: it passes through
/// a few hands per request (scan, policy, the service's head), and each copy retained and
/// released its strings and buffer, about a tenth of those the gateway made per request.
package struct PlainRequestHead: ~Copyable {
    package enum Scan: ~Copyable {
        /// More bytes are needed: no head end yet, and fewer bytes than the limit.
        case incomplete
        /// Not in the plain form, or longer than the limit.
        case unusual
        /// A head, and how many bytes it took (its blank line included).
        case head(PlainRequestHead, length: Int)
    }

    /// Longer heads go to NIO's parser (whose own limit is larger); real clients' are a few hundred bytes.
    package static let maxLength = 16 << 10
    package static let maxFields = 100

    package var method: String
    package var target: String
    /// The field lines as they came, CRLF each: a slice of what was read, no copy. The gateway
    /// passes most of them on to a service as they are; nothing is made a string that need not be.
    package var lines: ByteBuffer
    /// What the byte fronts need of the headers, read as the lines were checked (nil: a header
    /// rules the direct path out).
    package var facts: DirectHeaderFacts?

    /// Each field's name, its value without the whitespace around it, and its whole line.
    package func forEachField(
        _ visit: (_ name: UnsafeRawBufferPointer.SubSequence, _ value: UnsafeRawBufferPointer.SubSequence, _ line: UnsafeRawBufferPointer.SubSequence)
            -> Void
    ) {
        lines.withUnsafeReadableBytes { HTTP1Syntax.forEachField(in: $0, visit) }
    }

    package static func scan(_ buffer: ByteBuffer) -> Scan {
        let found = buffer.withUnsafeReadableBytes { scan(UnsafeRawBufferPointer(rebasing: $0[...])) }
        // Consumed: its parts move into the head rather than being copied (retained) and released.
        switch consume found {
        case .incomplete: return .incomplete
        case .unusual: return .unusual
        case .head(let method, let target, let lines, let facts, let length):
            let head = PlainRequestHead(
                method: method, target: target, lines: buffer.getSlice(at: buffer.readerIndex + lines.lowerBound, length: lines.count)!,
                facts: facts)
            return .head(head, length: length)
        }
    }

    private enum Found {
        case incomplete
        case unusual
        case head(method: String, target: String, lines: Range<Int>, facts: DirectHeaderFacts?, length: Int)
    }

    private static func scan(_ bytes: UnsafeRawBufferPointer) -> Found {
        guard let end = HTTP1Syntax.headEnd(bytes, limit: maxLength) else { return bytes.count >= maxLength ? .unusual : .incomplete }
        var reader = LineReader(bytes: bytes, end: end)
        guard let method = reader.token(until: 0x20), method.count <= 16, method.allSatisfy({ (65...90).contains($0) }),
            let target = reader.visible(until: 0x20), target.first == UInt8(ascii: "/"),
            reader.literal("HTTP/1.1\r\n")
        else { return .unusual }
        let linesStart = reader.index
        var count = 0
        var facts: DirectHeaderFacts? = DirectHeaderFacts()
        while !reader.literal("\r\n") {
            guard count < maxFields, let name = reader.token(until: UInt8(ascii: ":")), let value = reader.fieldValue() else { return .unusual }
            if facts?.take(name, value: { String(decoding: value, as: UTF8.self) }) == false { facts = nil }
            count += 1
        }
        return .head(
            method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self), lines: linesStart..<(end - 2),
            facts: facts, length: end)
    }

    /// Reads a head's lines left to right; every read fails (nil or false) on a byte out of form.
    private struct LineReader {
        let bytes: UnsafeRawBufferPointer
        let end: Int
        var index = 0

        init(bytes: UnsafeRawBufferPointer, end: Int) {
            self.bytes = bytes
            self.end = end
        }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard end - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// An RFC 9110 token, then `separator` (consumed).
        mutating func token(until separator: UInt8) -> UnsafeRawBufferPointer.SubSequence? {
            let start = index
            while index < end, HTTP1Syntax.isTokenByte(bytes[index]) { index += 1 }
            guard index > start, index < end, bytes[index] == separator else { return nil }
            defer { index += 1 }
            return bytes[start..<index]
        }

        /// Visible ASCII, then `separator` (consumed).
        mutating func visible(until separator: UInt8) -> UnsafeRawBufferPointer.SubSequence? {
            let start = index
            while index < end, (0x21...0x7E).contains(bytes[index]) { index += 1 }
            guard index > start, index < end, bytes[index] == separator else { return nil }
            defer { index += 1 }
            return bytes[start..<index]
        }

        /// A field's value without the whitespace around it, then CRLF (consumed). Printable ASCII
        /// and tabs only: other bytes (obs-text, controls, a lone CR or LF) are NIO's to judge.
        mutating func fieldValue() -> UnsafeRawBufferPointer.SubSequence? {
            while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            let start = index
            // Eight bytes at a time while all are printable (a token's value is hundreds).
            while end - index >= 8, !HTTP1Syntax.hasNonPrintable(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { index += 8 }
            while index < end, (0x20...0x7E).contains(bytes[index]) || bytes[index] == 0x09 { index += 1 }
            guard end - index >= 2, bytes[index] == 0x0D, bytes[index + 1] == 0x0A else { return nil }
            var last = index
            while last > start, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
            index += 2
            return bytes[start..<last]
        }
    }
}
