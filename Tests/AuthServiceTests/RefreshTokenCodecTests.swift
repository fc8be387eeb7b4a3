import Crypto
import Foundation
import XCTest

@testable import AuthService

/// The codec reads and writes tokens in their bytes (no parts copied); these pin it against the
/// format as written independently here: payload, a dot, base64url of HMAC-SHA256 unpadded.
final class RefreshTokenCodecTests: XCTestCase {
    private let key = SymmetricKey(size: .bits256)

    private func expected(_ payload: String) -> String {
        let mac = Data(HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: key)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return payload + "." + mac
    }

    func testTokensAreThePayloadAndItsMACAndReadBack() {
        let codec = RefreshTokenCodec(key: key)
        for claims in [
            RefreshTokenCodec.Claims(sessionID: "s", generation: 1, expiresAt: 0),
            RefreshTokenCodec.Claims(sessionID: "0f3c9a7e-5d1b-4c2a-9e8f-7a6b5c4d3e2f", generation: 42, expiresAt: 1_764_000_000_000),
            RefreshTokenCodec.Claims(sessionID: "세션", generation: Int64.max, expiresAt: Int64.max),
        ] {
            let token = codec.token(claims)
            XCTAssertEqual(token, expected("\(claims.sessionID).\(claims.generation).\(claims.expiresAt)"))
            XCTAssertEqual(codec.read(token), .current(claims))
        }
    }

    func testOnlyGenuineThreePartPayloadsAreCurrent() {
        let codec = RefreshTokenCodec(key: key)
        XCTAssertEqual(codec.read("no-dot-at-all"), .legacy)
        XCTAssertEqual(codec.read(""), .legacy)
        for payload in ["s.1", "s.1.2.3", ".1.2", "s..2", "s.1.", "s.x.2", "s.1.2x", "s.1.2 "] {
            XCTAssertEqual(codec.read(expected(payload)), .invalid, payload)
        }
        let genuine = codec.token(.init(sessionID: "s", generation: 1, expiresAt: 2))
        XCTAssertEqual(codec.read(genuine), .current(.init(sessionID: "s", generation: 1, expiresAt: 2)))
        XCTAssertEqual(codec.read(String(genuine.dropLast())), .invalid, "a MAC cut short")
        XCTAssertEqual(codec.read(genuine + "A"), .invalid, "a MAC made longer")
        XCTAssertEqual(codec.read("s.1.2."), .invalid, "no MAC")
        XCTAssertEqual(RefreshTokenCodec(key: SymmetricKey(size: .bits256)).read(genuine), .invalid, "another key's")
    }
}
