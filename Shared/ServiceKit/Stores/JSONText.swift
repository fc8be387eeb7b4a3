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

    /// A list of strings (file paths, tags), read on every feed row by `JSONScanner`; anything
    /// it does not read goes through `JSONDecoder`.
    package static func strings(_ text: String) -> [String]? {
        JSONScanner.read(text) { $0.list { $0.string() } } ?? decode(text)
    }
}
