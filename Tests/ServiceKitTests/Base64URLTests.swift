import Foundation
import ServiceKit
import XCTest

/// The hand-written base64url against Foundation's base64 with the alphabet swapped.
final class Base64URLTests: XCTestCase {
    func testRandomBytesAsFoundationWritesThem() {
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            XCTAssertEqual(Base64URL.encode(bytes), foundation)
            XCTAssertEqual(Base64URL.decode(foundation), Data(bytes))
            XCTAssertEqual(Base64URL.decode(Data(bytes).base64EncodedString()), Data(bytes), "plain, padded base64 too")
        }
    }

    func testWhatIsNotBase64() {
        for text in ["a", "abcde", "ab c", "ab*c", "한글"] {
            XCTAssertNil(Base64URL.decode(text), text)
        }
    }
}
