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
            guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]"),
                !bytes.contains(UInt8(ascii: "\\"))
            else { return nil }
            var strings: [String] = []
            var index = 1
            let end = bytes.count - 1
            while index < end {
                if !strings.isEmpty {
                    guard bytes[index] == UInt8(ascii: ","), index + 1 < end else { return nil }
                    index += 1
                }
                guard bytes[index] == UInt8(ascii: "\""),
                    let close = bytes[(index + 1)..<end].firstIndex(of: UInt8(ascii: "\""))
                else { return nil }
                strings.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<close]), as: UTF8.self))
                index = close + 1
            }
            return strings
        } ?? decode(text)
    }
}
