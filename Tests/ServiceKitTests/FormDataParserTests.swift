import FileStorage
import NIOCore
import ServiceKit
import XCTest

/// The multipart reader: the same parts however the body is cut into reads, and a 400 (never a
/// crash) for what is not a form.
final class FormDataParserTests: XCTestCase {
    static let boundary = "----glint7MA4YWxk"
    /// A field, then a file whose bytes hold everything a delimiter search could trip on: CRLF,
    /// `--`, the boundary without its CRLF, bytes above 0x7F.
    static let file: [UInt8] = [0xFF, 0xD8, 13, 10, 0x41, 45, 45] + Array("----glint7MA4YWxk".utf8) + [0x80, 0xC3, 0xA9, 13, 10, 13, 0, 45]
    static var body: [UInt8] {
        Array("preamble to ignore\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"content\"\r\n\r\n안녕 -- 하세요\r\n--\(boundary)  \r\n".utf8)
            + Array("Content-Disposition: form-data; name=\"files\"; filename=\"사진.jpg\"\r\nContent-Type:  image/jpeg \r\n\r\n".utf8)
            + file + Array("\r\n--\(boundary)--\r\nepilogue".utf8)
    }

    static let expected: [FormDataParser.Event] = [
        .header(name: "Content-Disposition", value: "form-data; name=\"content\""), .body(ByteBuffer(string: "안녕 -- 하세요")), .partEnd,
        .header(name: "Content-Disposition", value: "form-data; name=\"files\"; filename=\"사진.jpg\""),
        .header(name: "Content-Type", value: "image/jpeg"), .body(ByteBuffer(bytes: file)), .partEnd,
    ]

    /// Feeds `pieces` and gathers the events, body pieces of one part joined.
    static func parse(_ pieces: [[UInt8]]) throws -> [FormDataParser.Event] {
        var parser = FormDataParser(boundary: boundary)
        var events: [FormDataParser.Event] = []
        for piece in pieces {
            try parser.feed(ByteBuffer(bytes: piece)) { event in
                if case .body(var more) = event, case .body(var gathered)? = events.last {
                    gathered.writeBuffer(&more)
                    events[events.count - 1] = .body(gathered)
                } else if case .body(let more) = event, more.readableBytes == 0 {
                    return
                } else {
                    events.append(event)
                }
            }
        }
        try parser.finish()
        return events
    }

    func testTheSamePartsWhereverTheReadsAreCut() throws {
        let body = Self.body
        XCTAssertEqual(try Self.parse([body]), Self.expected)
        for cut in 0...body.count {
            XCTAssertEqual(try Self.parse([Array(body[..<cut]), Array(body[cut...])]), Self.expected, "cut at \(cut)")
        }
        XCTAssertEqual(try Self.parse(body.map { [$0] }), Self.expected, "a byte per read")
    }

    func testAFirstDelimiterWithoutPreambleAndAPartWithoutHeaders() throws {
        let body = Array("--\(Self.boundary)\r\n\r\nbare\r\n--\(Self.boundary)--".utf8)
        XCTAssertEqual(try Self.parse([body]), [.body(ByteBuffer(string: "bare")), .partEnd])
    }

    func testAHeaderNameAboveASCIIIsMalformedNotACrash() {
        let body = Array("--\(Self.boundary)\r\nCont".utf8) + [0xC3, 0xA9] + Array("nt: x\r\n\r\nv\r\n--\(Self.boundary)--".utf8)
        XCTAssertThrowsError(try Self.parse([body])) { XCTAssertTrue($0 is FormDataParser.Malformed) }
    }

    func testWhatIsNotAFormIsMalformed() {
        let cases: [(String, String)] = [
            ("cut off inside a part", "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end"),
            ("cut off inside the headers", "--\(Self.boundary)\r\nContent-Disposition: form-"),
            ("text after a delimiter", "--\(Self.boundary)junk\r\n\r\nx\r\n--\(Self.boundary)--"),
            ("a header line without a name", "--\(Self.boundary)\r\n: value\r\n\r\nx\r\n--\(Self.boundary)--"),
            ("a folded header line", "--\(Self.boundary)\r\nA: b\r\n c\r\n\r\nx\r\n--\(Self.boundary)--"),
            ("headers without end", "--\(Self.boundary)\r\nA: " + String(repeating: "b", count: FormDataParser.maxHeaderBytes + 1)),
        ]
        for (what, body) in cases {
            XCTAssertThrowsError(try Self.parse([Array(body.utf8)]), what) { XCTAssertTrue($0 is FormDataParser.Malformed, what) }
        }
    }

    func testABodyWithoutAnyDelimiterHasNoParts() throws {
        XCTAssertEqual(try Self.parse([Array("just some text, no boundary".utf8)]), [])
    }
}
