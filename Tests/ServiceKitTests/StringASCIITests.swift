import ServiceKit
import XCTest

/// Header names compared without case, on strings and on bytes read from the wire, against the
/// same names with their ASCII letters folded to lowercase here.
final class StringASCIITests: XCTestCase {
    private let names = ["x-internal-", "x-request-id", "sesackey", "host", "content-length", "te", "", "x-", "한글"]

    private func respelled(_ text: String) -> String {
        String(text.map { Bool.random() ? Character($0.uppercased()) : $0 })
    }

    func testPrefixesAndEqualityAsLowercasingWouldAnswer() {
        let candidates = names + ["X-Internal-Secret", "x-internal", "X-REQUEST-ID", "hostname", "ho", "x-internal-\u{7F}", "[", "@"]
        for _ in 0..<50 {
            for candidate in candidates.map(respelled) {
                for lowercase in names where lowercase.allSatisfy(\.isASCII) {
                    let folded = String(
                        candidate.unicodeScalars.map { (65...90).contains($0.value) ? Character(Unicode.Scalar($0.value | 0x20)!) : Character($0) })
                    XCTAssertEqual(candidate.hasASCIIPrefix(caseInsensitively: lowercase), folded.hasPrefix(lowercase), "\(candidate) / \(lowercase)")
                    XCTAssertEqual(candidate.isASCII(caseInsensitivelyEqualTo: lowercase), folded == lowercase, "\(candidate) / \(lowercase)")
                    let bytes = Array(candidate.utf8)
                    bytes.withUnsafeBytes { raw in
                        XCTAssertEqual(raw[...].hasASCIIPrefix(caseInsensitively: lowercase), folded.hasPrefix(lowercase), "bytes of \(candidate)")
                    }
                }
            }
        }
    }

    /// Small strings (kept inline), large ones, one cut from a larger string and non-ASCII text:
    /// the bytes read in place are the string's UTF-8.
    func testBorrowedBytesAreTheStringsUTF8() {
        let long = String(repeating: "x-internal-app-profile ", count: 20)
        let texts = ["", "sesackey", "x-internal-secret", long, String(long.dropFirst(3).prefix(40)), "한글 헤더 값", "é\u{1F600}"]
        for text in texts {
            XCTAssertEqual(text.withBorrowedUTF8 { Array($0) }, Array(text.utf8), text)
        }
    }
}
