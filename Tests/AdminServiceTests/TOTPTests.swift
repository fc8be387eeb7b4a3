import Foundation
import XCTest

@testable import AdminService

/// RFC 6238's own test vectors (Appendix B, SHA-1, the 20-byte ASCII secret "12345678901234567890"),
/// taken to six digits as authenticator apps show them.
final class TOTPTests: XCTestCase {
    func testRFC6238Vectors() {
        let totp = TOTP(secret: Array("12345678901234567890".utf8))
        let vectors: [(Int64, String)] = [
            (59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"), (2_000_000_000, "279037"),
            (20_000_000_000, "353130"),
        ]
        for (time, code) in vectors {
            XCTAssertEqual(totp.code(step: TOTP.step(at: Date(timeIntervalSince1970: Double(time)))), code, "T = \(time)")
        }
    }

    func testAcceptsOneStepEitherSideOnly() {
        let totp = TOTP.generate()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let step = TOTP.step(at: now)
        XCTAssertEqual(totp.matchingStep(totp.code(step: step), at: now), step)
        XCTAssertEqual(totp.matchingStep(totp.code(step: step - 1), at: now), step - 1)
        XCTAssertEqual(totp.matchingStep(totp.code(step: step + 1), at: now), step + 1)
        let farCode = totp.code(step: step - 2)
        if ![step - 1, step, step + 1].contains(where: { totp.code(step: $0) == farCode }) {
            XCTAssertNil(totp.matchingStep(farCode, at: now))
        }
        XCTAssertNil(totp.matchingStep("12345", at: now))
        XCTAssertNil(totp.matchingStep("12345a", at: now))
    }

    func testBase32RoundTripsAndMatchesRFC4648() {
        XCTAssertEqual(Base32.encode(Array("foobar".utf8)), "MZXW6YTBOI")
        XCTAssertEqual(Base32.decode("MZXW6YTBOI").map { String(decoding: $0, as: UTF8.self) }, "foobar")
        XCTAssertEqual(Base32.decode("mzxw6ytboi======").map { String(decoding: $0, as: UTF8.self) }, "foobar")
        XCTAssertNil(Base32.decode("MZXW1"))
        let totp = TOTP.generate()
        XCTAssertEqual(TOTP(base32: totp.base32), totp)
    }
}
