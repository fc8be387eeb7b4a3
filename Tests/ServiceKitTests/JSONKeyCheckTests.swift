import ServiceKit
import XCTest

final class JSONKeyCheckTests: XCTestCase {
    func problem(_ text: String) -> String? { JSONKeyCheck.problem(in: Array(text.utf8)) }

    func testDuplicateKeysAnywhereAreFound() {
        XCTAssertEqual(problem(#"{"email":"a","email":"b"}"#), #"duplicate key "email""#)
        XCTAssertEqual(problem(#"{"a":{"b":1,"b":2}}"#), #"duplicate key "b""#)
        XCTAssertEqual(problem(#"[{"x":1},{"y":[{"z":1,"z":2}]}]"#), #"duplicate key "z""#)
        XCTAssertEqual(problem(#"{"a":1,"\u0061":2}"#), #"duplicate key "a""#, "an escaped spelling is the same key")
    }

    func testWhatIsNotADuplicate() {
        XCTAssertNil(problem(#"{"a":{"a":1},"b":[{"a":1},{"a":2}]}"#), "the same key in different objects")
        XCTAssertNil(problem(#"{"a":"a","b":"a,\"a\":{"}"#), "keys and punctuation inside strings are text")
        XCTAssertNil(problem(#"{"quotes":"[{\"quote\":\"x\"},{\"quote\":\"y\"}]"}"#))
        XCTAssertNil(problem(#"{"a":[1,2,3],"b":{}}"#))
        XCTAssertNil(problem(#"{"broken":"#), "malformed JSON is the decoder's to refuse")
    }

    func testDeepNestingIsRefused() {
        XCTAssertNil(problem(String(repeating: "[", count: JSONKeyCheck.maxDepth) + String(repeating: "]", count: JSONKeyCheck.maxDepth)))
        XCTAssertEqual(problem(String(repeating: "[", count: 100_000)), "JSON nested deeper than \(JSONKeyCheck.maxDepth) levels")
    }
}
