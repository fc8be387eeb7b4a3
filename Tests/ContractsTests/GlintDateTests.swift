import Contracts
import XCTest

final class GlintDateTests: XCTestCase {
    func testFormatsTheContractExample() {
        XCTAssertEqual(GlintDate.string(fromMilliseconds: 1_732_261_531_693), "2024-11-22T07:45:31.693Z")
        XCTAssertEqual(GlintDate.string(fromMilliseconds: 0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(GlintDate.string(fromMilliseconds: 951_782_400_005), "2000-02-29T00:00:00.005Z")
    }

    func testRoundTripsAndAgreesWithFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let ms = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let text = GlintDate.string(fromMilliseconds: ms)
            XCTAssertEqual(text.count, 24)
            XCTAssertEqual(GlintDate.milliseconds(from: text), ms)
            XCTAssertEqual(formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)), text)
        }
    }

    func testRejectsAnythingElse() {
        for bad in [
            "", "2024-11-22T07:45:31Z", "2024-11-22T07:45:31.693", "2024-13-22T07:45:31.693Z",
            "2023-02-29T07:45:31.693Z", "2024-11-22 07:45:31.693Z", "2024-11-22T24:00:00.000Z", "abcd-11-22T07:45:31.693Z",
        ] {
            XCTAssertNil(GlintDate.milliseconds(from: bad), bad)
        }
    }
}
