import ServiceKit
import XCTest

/// Lists of strings read back from their column text: the quick cut and the decoder agree.
final class JSONTextTests: XCTestCase {
    func testStringListsRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let list = (0..<Int.random(in: 0...5, using: &generator)).map { _ in JSONWriterTests.text(&generator) }
            let text = JSONText.encode(list)
            XCTAssertEqual(JSONText.strings(text), list, text)
            XCTAssertEqual(JSONText.strings(text), JSONText.decode(text) as [String]?)
        }
    }

    /// Whatever the quick cut refuses goes to the decoder, so the two never disagree.
    func testOddTextReadsAsTheDecoderReadsIt() {
        for text in ["", "[", "]", "[,]", "[\"a\",]", "[\"a\"", "[\"a\" \"b\"]", "{}", "[1]", "[\"a\",1]", "null"] {
            XCTAssertEqual(JSONText.strings(text), JSONText.decode(text) as [String]?, text)
        }
        XCTAssertNil(JSONText.strings("[\"a\" \"b\"]"))
        XCTAssertEqual(JSONText.strings("[ \"spaced\" ]"), ["spaced"], "other JSON writers' spacing")
    }
}
