import Contracts
import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import JWTKit
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// Sign in with Apple by authorization code (API.md §9) against the Apple simulator's token
/// endpoint: a new then a returning user, and every failure path answered 401 with nothing made.
final class QuotehubAppleSignInTests: XCTestCase {
    func testANewThenAReturningReader() async throws {
        let fixture = try await QuotehubFixture.make()
        try await fixture.harness.app.contractTest { client in
            func signIn(_ code: String) async throws -> [String: Any] {
                let answer = try await client.execute(
                    uri: "/auth/apple/callback", method: .post, headers: fixture.headers(), body: JSONCoding.encode(AppleCodeRequest(code: code)))
                XCTAssertEqual(answer.status, .ok, answer.body.text)
                let body = try JSON.object(answer.body)
                JSON.assertKeys(body, ["success", "message", "data"])
                XCTAssertEqual(body["success"] as? Bool, true)
                let data = try XCTUnwrap(body["data"] as? [String: Any])
                JSON.assertKeys(data, ["user", "accessToken", "refreshToken", "isNewUser"])
                return data
            }
            let first = try await signIn(
                fixture.apple.issueCode(subject: "001122.reader", clientID: QuotehubFixture.clientID, email: "r@privaterelay.appleid.com"))
            XCTAssertEqual(first["isNewUser"] as? Bool, true)
            let user = try XCTUnwrap(first["user"] as? [String: Any])
            JSON.assertKeys(user, ["_id", "nickname", "profileImage"])
            XCTAssertEqual(user["profileImage"] as? String, "", "\"\" when none")
            let nickname = try JSON.string(user, "nickname")
            XCTAssertTrue(nickname.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "a generated Korean nickname: \(nickname)")

            let again = try await signIn(fixture.apple.issueCode(subject: "001122.reader", clientID: QuotehubFixture.clientID))
            XCTAssertEqual(again["isNewUser"] as? Bool, false)
            XCTAssertEqual((again["user"] as? [String: Any])?["_id"] as? String, user["_id"] as? String)
            XCTAssertEqual((again["user"] as? [String: Any])?["nickname"] as? String, nickname, "a returning reader keeps their nickname")
            let users = try await fixture.userCount()
            XCTAssertEqual(users, 1)

            // Apple's refresh token is kept, sealed: not readable in the file.
            let sealed = try await fixture.harness.values(Data.self, "SELECT sealed_refresh_token FROM apple_grant")
            XCTAssertEqual(sealed.count, 1)
            let issued = fixture.apple.issuedRefreshTokens
            XCTAssertFalse(issued.contains { String(decoding: sealed[0], as: UTF8.self).contains($0) }, "sealed, not plain")
            let opened = try SealingKey.loadOrCreate(at: fixture.harness.dataDirectory + "/auth-sealing.key").open(sealed[0])
            XCTAssertTrue(issued.contains(opened), "the latest of Apple's refresh tokens")

            // The access token works as a Bearer token.
            let token = try JSON.string(again, "accessToken")
            let me = try await client.execute(
                uri: "/v1/users/me/profile", method: .get,
                headers: TestEnvironment.fields(app: fixture.appID, extra: [("Authorization", "Bearer " + token)]))
            XCTAssertEqual(me.status, .ok, me.body.text)
        }
        await fixture.apple.stop()
    }

    func testRefusedCodesAndWrongIdentityTokensCreateNothing() async throws {
        let fixture = try await QuotehubFixture.make()
        let apple = fixture.apple
        try await fixture.harness.app.contractTest { client in
            let used = apple.issueCode(subject: "s.used", clientID: QuotehubFixture.clientID)
            _ = try await client.execute(
                uri: "/auth/apple/callback", method: .post, headers: fixture.headers(), body: JSONCoding.encode(AppleCodeRequest(code: used)))
            let before = try await fixture.userCount()
            let cases: [(String, String)] = [
                ("a code Apple refuses", "never-issued"),
                ("a code used twice", used),
                (
                    "an id_token for another audience",
                    apple.issueCode(subject: "s1", clientID: QuotehubFixture.clientID, idTokenAudience: "com.someone.else")
                ),
                (
                    "an id_token from another issuer",
                    apple.issueCode(subject: "s2", clientID: QuotehubFixture.clientID, issuer: "https://evil.example")
                ),
                ("an expired id_token", apple.issueCode(subject: "s3", clientID: QuotehubFixture.clientID, expiresIn: -60)),
                ("a code for another client", apple.issueCode(subject: "s4", clientID: "com.other.client")),
            ]
            for (label, code) in cases {
                let answer = try await client.execute(
                    uri: "/auth/apple/callback", method: .post, headers: fixture.headers(), body: JSONCoding.encode(AppleCodeRequest(code: code)))
                XCTAssertEqual(try JSONDecoder().decode(CanonicalError.self, from: answer.body).code, .loginFailed, "\(label): \(answer.body.text)")
                XCTAssertEqual(ErrorCode.loginFailed.quotehubStatus, 401)
            }
            let users = try await fixture.userCount()
            XCTAssertEqual(users, before, "nothing created")
            let empty = try await client.execute(
                uri: "/auth/apple/callback", method: .post, headers: fixture.headers(), body: JSONCoding.encode(AppleCodeRequest(code: "")))
            XCTAssertEqual(empty.status, .badRequest)
        }
        await apple.stop()

        // The app's key is not the one Apple holds: Apple refuses the client (401 too).
        let other = try await QuotehubFixture.make()
        await other.apple.registerClient(QuotehubFixture.clientID, teamID: "TEAM123456", keyID: "KEY1234567", publicKey: ES256PrivateKey().publicKey)
        try await other.harness.app.contractTest { client in
            let answer = try await client.execute(
                uri: "/auth/apple/callback", method: .post, headers: other.headers(),
                body: JSONCoding.encode(AppleCodeRequest(code: other.apple.issueCode(subject: "s", clientID: QuotehubFixture.clientID))))
            XCTAssertEqual(try JSONDecoder().decode(CanonicalError.self, from: answer.body).code, .loginFailed)
            let users = try await other.userCount()
            XCTAssertEqual(users, 0)
        }
        await other.apple.stop()
    }

    /// `renew-token` with the refresh token as Bearer (not rotated), `validate-token` with both.
    func testRenewAndValidateTokens() async throws {
        let fixture = try await QuotehubFixture.make()
        try await fixture.harness.app.contractTest { client in
            let signedIn = try await client.execute(
                uri: "/auth/apple/callback", method: .post, headers: fixture.headers(),
                body: JSONCoding.encode(AppleCodeRequest(code: fixture.apple.issueCode(subject: "t.reader", clientID: QuotehubFixture.clientID))))
            let data = try XCTUnwrap(try JSON.object(signedIn.body)["data"] as? [String: Any])
            let (access, refresh) = (try JSON.string(data, "accessToken"), try JSON.string(data, "refreshToken"))
            func call(_ path: String, _ extra: [(String, String)]) async throws -> TestResponse {
                try await client.execute(
                    uri: path, method: .post,
                    headers: TestEnvironment.fields(app: fixture.appID, extra: [(InternalHeader.appProfile, "quotehub")] + extra))
            }
            for attempt in 1...2 {
                let renewed = try await call("/auth/renew-token", [("Authorization", "Bearer " + refresh)])
                XCTAssertEqual(renewed.status, .ok, "attempt \(attempt): \(renewed.body.text)")
                JSON.assertKeys(try XCTUnwrap(try JSON.object(renewed.body)["data"] as? [String: Any]), ["accessToken"])
            }
            let bogus = try await call("/auth/renew-token", [("Authorization", "Bearer not-a-refresh-token")])
            XCTAssertEqual(try JSONDecoder().decode(CanonicalError.self, from: bogus.body).code.quotehubStatus, 401)

            let valid = try await call("/auth/validate-token", [("Authorization", "Bearer " + access), ("x-refresh-token", refresh)])
            XCTAssertEqual(try JSON.object(valid.body)["data"] as? [String: Bool], ["valid": true])
            let expired = try await fixture.harness.expiredToken(
                for: AuthAnswer(userID: "", email: "", nick: "", profileImage: nil, accessToken: access, refreshToken: refresh))
            let rotated = try await call("/auth/validate-token", [("Authorization", "Bearer " + expired), ("x-refresh-token", refresh)])
            let pair = try XCTUnwrap(try JSON.object(rotated.body)["data"] as? [String: Any])
            JSON.assertKeys(pair, ["valid", "accessToken", "refreshToken"])
            XCTAssertEqual(pair["valid"] as? Bool, false)
            XCTAssertNotEqual(pair["refreshToken"] as? String, refresh, "a rotated pair")
            let neither = try await call("/auth/validate-token", [("Authorization", "Bearer " + expired), ("x-refresh-token", "nope")])
            XCTAssertEqual(try JSONDecoder().decode(CanonicalError.self, from: neither.body).code.quotehubStatus, 401)
        }
        await fixture.apple.stop()
    }
}
