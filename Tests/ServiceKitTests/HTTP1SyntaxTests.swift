import ServiceKit
import XCTest

/// The word-at-a-time tests the byte fronts' scans skip with: each must say exactly what a byte
/// loop says, for every byte value in every position.
final class HTTP1SyntaxTests: XCTestCase {
    func testWordTestsAgreeWithByteLoops() {
        var generator = SystemRandomNumberGenerator()
        let printable = (UInt8(0x20)...0x7E).map { $0 }
        for position in 0..<8 {
            for value in UInt8.min...UInt8.max {
                // The other bytes printable and no line feed, so the one byte decides.
                var bytes = (0..<8).map { _ in printable.randomElement(using: &generator)! }
                bytes[position] = value
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                XCTAssertEqual(HTTP1Syntax.hasByte(0x0A, in: word), bytes.contains(0x0A), "\(bytes)")
                XCTAssertEqual(HTTP1Syntax.hasNonPrintable(word), bytes.contains { !(0x20...0x7E).contains($0) }, "\(bytes)")
            }
        }
        for _ in 0..<100_000 {
            let bytes = (0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            XCTAssertEqual(HTTP1Syntax.hasByte(0x0A, in: word), bytes.contains(0x0A), "\(bytes)")
            XCTAssertEqual(HTTP1Syntax.hasNonPrintable(word), bytes.contains { !(0x20...0x7E).contains($0) }, "\(bytes)")
        }
    }

    func testTheHeadEndsAtTheFirstBlankLineWhereverItFalls() {
        for padding in 0..<24 {
            let head = "GET / HTTP/1.1\r\nX-A: " + String(repeating: "a", count: padding) + "\r\n\r\nBODY\r\n\r\n"
            let end = Array(head.utf8).withUnsafeBytes { HTTP1Syntax.headEnd($0, limit: 1 << 14) }
            XCTAssertEqual(end, head.utf8.count - 8, "padding \(padding)")
            let cut = Array(head.utf8.prefix(head.utf8.count - 9)).withUnsafeBytes { HTTP1Syntax.headEnd($0, limit: 1 << 14) }
            XCTAssertNil(cut, "padding \(padding): no blank line yet")
            let limited = Array(head.utf8).withUnsafeBytes { HTTP1Syntax.headEnd($0, limit: head.utf8.count - 9) }
            XCTAssertNil(limited, "padding \(padding): beyond the limit")
        }
    }
}
