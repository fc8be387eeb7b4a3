/// Compact JSON without escapes, as the stores write lists and small objects into TEXT columns,
/// read byte by byte where a column is read on every row and `JSONDecoder` would cost more than
/// the row. A read at anything outside that shape fails (nil; `take`, false), and the caller then
/// decodes the text with `JSONDecoder`.
package struct JSONScanner {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index = 0

    /// nil when the text holds an escape: strings are read as they stand.
    @inlinable package init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.contains(UInt8(ascii: "\\")) else { return nil }
        self.bytes = bytes
    }

    @inlinable package var isAtEnd: Bool { index == bytes.count }

    /// Steps over `character` if it is next.
    @inlinable package mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    @inlinable package mutating func string() -> String? {
        guard take("\""), let close = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        defer { index = close + 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<close]), as: UTF8.self)
    }

    @inlinable package mutating func integer() -> Int? {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// The whole text as a list whose elements `element` reads.
    @inlinable package mutating func list<Element>(_ element: (inout JSONScanner) -> Element?) -> [Element]? {
        guard take("[") else { return nil }
        var elements: [Element] = []
        if take("]") { return isAtEnd ? elements : nil }
        repeat {
            guard let next = element(&self) else { return nil }
            elements.append(next)
        } while take(",")
        return take("]") && isAtEnd ? elements : nil
    }
}
