import Foundation

/// What `JSONDecoder` lets through and a request must not carry: an object with the same key
/// twice (the decoder keeps the first, another parser the last: two readers, two requests), and
/// nesting deeper than any of our shapes (refused before the decoder recurses into it).
package enum JSONKeyCheck {
    package static let maxDepth = 32

    /// The problem with the text, or nil. Malformed JSON is left to the decoder.
    package static func problem(in bytes: some Collection<UInt8>) -> String? {
        var stack: [Set<String>?] = []  // an object's keys so far, or nil for an array
        var expectingKey = false
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                var escaped = false
                bytes.formIndex(after: &index)
                while index != bytes.endIndex, escaped || bytes[index] != UInt8(ascii: "\"") {
                    escaped = !escaped && bytes[index] == UInt8(ascii: "\\")
                    bytes.formIndex(after: &index)
                }
                guard index != bytes.endIndex else { return nil }
                if expectingKey, let top = stack.last, var keys = top {
                    let key = decodedKey(Array(bytes[start...index]))
                    guard keys.insert(key).inserted else { return "duplicate key \"\(key.prefix(40))\"" }
                    stack[stack.count - 1] = keys
                    expectingKey = false
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append(byte == UInt8(ascii: "{") ? [] : nil)
                expectingKey = byte == UInt8(ascii: "{")
                if stack.count > maxDepth { return "JSON nested deeper than \(maxDepth) levels" }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = stack.last.map { $0 != nil } ?? false
            default:
                break
            }
            bytes.formIndex(after: &index)
        }
        return nil
    }

    /// A key as the decoder sees it: `"a"` and `"\u0061"` are the same key.
    private static func decodedKey(_ quoted: [UInt8]) -> String {
        let raw = String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
        guard quoted.contains(UInt8(ascii: "\\")) else { return raw }
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? raw
    }
}
