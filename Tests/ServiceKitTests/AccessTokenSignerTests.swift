import Foundation
import JWTKit
import ServiceKit
import TestSupport
import XCTest

/// The signer writes and signs tokens by hand; JWTKit (an independent implementation) must read
/// them, and their segments must be the bytes JWTKit's own encoding gave.
final class AccessTokenSignerTests: XCTestCase {
    func testTokensAreWhatJWTKitWouldWriteAndVerify() async throws {
        let key = ES256PrivateKey()
        let keyID = "key-" + String(Int.random(in: 1000...9999))
        let signer = try AccessTokenSigner(key: key, keyID: keyID)
        let jwtKit = await JWTKeyCollection().add(ecdsa: key.publicKey, kid: JWKIdentifier(string: keyID))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .integerSecondsSince1970
        let alphabet = Array("aZ09/\\\"\n\u{1}é한😀 .-_")
        for _ in 0..<200 {
            func text() -> String { String((0..<Int.random(in: 0...12)).map { _ in alphabet.randomElement()! }) }
            let issued = Date(timeIntervalSince1970: Double.random(in: 1_600_000_000...1_900_000_000))
            let claims = AccessTokenClaims(
                userID: text(), appID: text(), sessionID: text(), issuedAt: issued,
                expiresAt: issued.addingTimeInterval(Double.random(in: 1...90_000))
            )
            let token = try signer.sign(claims)
            let segments = token.split(separator: ".", omittingEmptySubsequences: false)
            XCTAssertEqual(segments.count, 3)
            XCTAssertEqual(Base64URL.decode(segments[0]), Data(#"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"#.utf8))
            XCTAssertEqual(Base64URL.decode(segments[1]), try encoder.encode(claims), String(describing: claims))
            let verified = try await jwtKit.verify(token, as: AccessTokenClaims.self)
            XCTAssertEqual(verified, claims.withWholeSeconds)
        }
    }
}

private extension AccessTokenClaims {
    /// As the token carries it: dates in whole seconds.
    var withWholeSeconds: AccessTokenClaims {
        func whole(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.towardZero)) }
        return AccessTokenClaims(userID: sub.value, appID: app, sessionID: sid, issuedAt: whole(iat.value), expiresAt: whole(exp.value))
    }
}
