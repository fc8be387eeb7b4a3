import Foundation
import NIOCore
import XCTest

/// Key-by-key checks of JSON answers: the apps decode with strict `JSONDecoder`s, so tests pin
/// which keys exist and what JSON type each value has.
package enum JSON {
    package static func object(_ buffer: ByteBuffer, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let data = Data(buffer.readableBytesView)
        let value = try JSONSerialization.jsonObject(with: data)
        return try XCTUnwrap(value as? [String: Any], "not a JSON object: \(String(decoding: data, as: UTF8.self))", file: file, line: line)
    }

    /// A JSON array of objects (the admin API's lists).
    package static func array(_ buffer: ByteBuffer, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let data = Data(buffer.readableBytesView)
        return try XCTUnwrap(
            try JSONSerialization.jsonObject(with: data) as? [[String: Any]], "not a JSON array of objects: \(String(decoding: data, as: UTF8.self))",
            file: file, line: line)
    }

    package static func assertKeys(_ object: [String: Any], _ keys: Set<String>, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Set(object.keys), keys, file: file, line: line)
    }

    package static func string(_ object: [String: Any], _ key: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try XCTUnwrap(object[key] as? String, "\(key) is not a string", file: file, line: line)
    }
}

extension ByteBuffer {
    package var text: String { String(buffer: self) }
}
