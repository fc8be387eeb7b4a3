import Foundation
import ServiceKit
import Storage
import XCTest

/// An export's lines: what `JSONWriter` writes of a record, `RecordLineParser` reads back value
/// for value (escapes, Korean, characters past the BMP, integers past 2^53), and a line that is
/// not a flat object of scalars is refused; each value is taken as its column's kind or not at all.
final class RecordLineTests: XCTestCase {
    func testWhatIsWrittenIsReadBack() throws {
        let record: [(String, RecordValue)] = [
            ("id", .text("6b096a93")), ("nick", .text("산책왕 \"짱\" \\ 🐕\n\t\u{01}")), ("count", .integer(4_611_686_018_427_387_904)),
            ("below", .integer(-42)), ("longitude", .real(127.0375)), ("big", .real(1e300)), ("is_public", .boolean(false)),
            ("mount", .null), ("sealed", .blob(Data([0, 1, 254, 255]))),
        ]
        var writer = JSONWriter()
        writer.objectStart()
        for (key, value) in record {
            writer.key(key)
            value.write(to: &writer)
        }
        writer.objectEnd()
        let parsed = try XCTUnwrap(RecordLineParser.parse(Data(writer.bytes)))
        XCTAssertEqual(parsed.count, record.count)
        let kinds: [String: ExportedColumn.Kind] = [
            "id": .text, "nick": .text, "count": .integer, "below": .integer, "longitude": .real, "big": .real, "is_public": .boolean, "mount": .text,
            "sealed": .blob,
        ]
        for (key, value) in record {
            XCTAssertEqual(parsed[key].flatMap { RecordValue(json: $0, as: kinds[key]!) }, value, key)
        }
    }

    func testEscapesAsJSONWritesThemAnywhere() throws {
        let parsed = try XCTUnwrap(RecordLineParser.parse(Data(#" { "a" : "\u00e9\ud83d\ude00\/\b\f\r" , "b":1.5e2 ,"c":true } "#.utf8)))
        XCTAssertEqual(parsed["a"], .string("é😀/\u{08}\u{0C}\r"))
        XCTAssertEqual(parsed["b"], .real(150))
        XCTAssertEqual(parsed["c"], .bool(true))
        XCTAssertEqual(RecordLineParser.parse(Data("{}".utf8)), [:])
    }

    func testAnythingButAFlatObjectOfScalarsIsRefused() {
        for line in [
            #"{"a":{"b":1}}"#, #"{"a":[1]}"#, #"{"a":1} x"#, #"{"a":"\q"}"#, #"{"a":"open"#, #"{"a":"\ud83d"}"#, #"{"a":+1}"#,
            #"{"a":"\u12G4"}"#, #"{"a":nul}"#, "{\"a\":\"line\nbreak\"}", #"["a"]"#, #"{"a" 1}"#, #"{"a":1,}"#, "",
        ] {
            XCTAssertNil(RecordLineParser.parse(Data(line.utf8)), line)
        }
    }

    func testAValueIsTakenAsItsColumnsKindOnly() {
        XCTAssertEqual(RecordValue(json: .integer(3), as: .real), .real(3), "an integral real")
        XCTAssertNil(RecordValue(json: .real(3.5), as: .integer))
        XCTAssertNil(RecordValue(json: .string("3"), as: .integer))
        XCTAssertNil(RecordValue(json: .integer(1), as: .boolean), "a boolean is true or false, not 1")
        XCTAssertNil(RecordValue(json: .bool(true), as: .text))
        XCTAssertNil(RecordValue(json: .string("not base64!"), as: .blob))
        XCTAssertEqual(RecordValue(json: .null, as: .integer), .null)
        XCTAssertEqual(ExportedColumn.kind(declared: "BOOLEAN"), .boolean)
        XCTAssertEqual(ExportedColumn.kind(declared: "bigint"), .integer)
        XCTAssertEqual(ExportedColumn.kind(declared: "double precision"), .real)
        XCTAssertEqual(ExportedColumn.kind(declared: "bytea"), .blob)
        XCTAssertEqual(ExportedColumn.kind(declared: "TEXT"), .text)
    }
}
