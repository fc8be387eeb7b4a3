import Foundation
import ServiceKit

/// Reads one line of an export: a flat JSON object of scalars, as `AppRecords` writes them. Read
/// by `JSONScanner` because `JSONDecoder` (its containers, a thrown error for every type tried)
/// was most of an import's time; anything else — nesting, a bad escape, trailing bytes — is refused.
package enum RecordLineParser {
    /// The line's values by key; nil when it is not such an object.
    package static func parse(_ line: some DataProtocol & ContiguousBytes) -> [String: RecordValue.LineValue]? {
        line.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt8.self) { bytes in
                JSONScanner.read(bytes) { scanner -> [String: RecordValue.LineValue]? in
                    var values: [String: RecordValue.LineValue] = [:]
                    let read = scanner.object { key, scanner in
                        guard let value = scanner.lineValue() else { return false }
                        values[key] = value
                        return true
                    }
                    return read ? values : nil
                }
            }
        }
    }
}

extension JSONScanner {
    /// A scalar; numbers as integers where they are ones (a `Double` would round ids and amounts
    /// past 2^53).
    fileprivate mutating func lineValue() -> RecordValue.LineValue? {
        switch peek() {
        case UInt8(ascii: "\"")?: return string().map { .string($0) }
        case UInt8(ascii: "n")?: return take(word: "null") ? .null : nil
        case UInt8(ascii: "t")?: return take(word: "true") ? .bool(true) : nil
        case UInt8(ascii: "f")?: return take(word: "false") ? .bool(false) : nil
        default:
            guard let number = number() else { return nil }
            if number.integral, let integer = Int64(number.text) { return .integer(integer) }
            return Double(number.text).map { .real($0) }
        }
    }
}
