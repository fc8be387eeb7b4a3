import Foundation
import NIOCore

/// Lists and small objects kept in a TEXT column as JSON (tags, file paths, filter values).
package enum JSONText {
    package static func encode(_ value: some Encodable) -> String {
        String(buffer: JSONCoding.encode(value))
    }

    package static func decode<T: Decodable>(_ text: String) -> T? {
        try? JSONCoding.decoder.decode(T.self, from: Data(text.utf8))
    }

    /// A list of strings (file paths, tags), read on every feed row: cut straight out of the
    /// text when it holds no escapes (as `encode` writes paths and tags), else through
    /// `JSONDecoder`.
    package static func strings(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            guard var scanner = JSONScanner(bytes) else { return nil }
            return scanner.list { $0.string() }
        } ?? decode(text)
    }
}
