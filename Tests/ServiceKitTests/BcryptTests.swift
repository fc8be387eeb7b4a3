import XCTest

@testable import Passwords

final class BcryptTests: XCTestCase {
    func testBlowfishStateIsPi() {
        let state = Blowfish.initialState
        XCTAssertEqual(state.count, 1042)
        XCTAssertEqual(Array(state.prefix(3)), [0x243F_6A88, 0x85A3_08D3, 0x1319_8A2E])
        XCTAssertEqual(state[17], 0x8979_FB1B, "last P word")
        XCTAssertEqual(state[18], 0xD131_0BA6, "first S-box word")
        XCTAssertEqual(state[1041], 0x3AC3_72E6, "last S-box word")
    }

    /// Vectors made with the reference implementation (Python `bcrypt`).
    func testKnownHashes() {
        let vectors: [(String, String)] = [
            ("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
            ("", "$2b$04$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq"),
            ("비밀번호1!", "$2b$04$XXXXXXXXXXXXXXXXXXXXXOxrOCi3gU0r8Mxvtx5pf3zPEEhO2QP2e"),
        ]
        for (password, hash) in vectors {
            XCTAssertTrue(Bcrypt.verify(password, against: hash), "\(password) vs \(hash)")
            XCTAssertFalse(Bcrypt.verify(password + "x", against: hash))
        }
    }

    func testHashRoundTripAndFormat() throws {
        let hash = Bcrypt.hash("pass1234!", cost: 4)
        XCTAssertTrue(hash.hasPrefix("$2b$04$"))
        XCTAssertEqual(hash.count, 60)
        XCTAssertTrue(Bcrypt.verify("pass1234!", against: hash))
        XCTAssertFalse(Bcrypt.verify("pass1234?", against: hash))
        XCTAssertNotEqual(Bcrypt.hash("pass1234!", cost: 4), hash, "fresh salt each time")
        let salt = try XCTUnwrap(BcryptBase64.decode("abcdefghijklmnopqrstuu", count: 16))
        XCTAssertEqual(Bcrypt.hash("", cost: 4, salt: salt), "$2b$04$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq")
    }

    func testMalformedHashesNeverVerify() {
        for stored in [
            "", "plain", "$2b$04$short", "$1$04$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq",
            "$2b$99$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq",
        ] {
            XCTAssertFalse(Bcrypt.verify("", against: stored), stored)
        }
    }
}
