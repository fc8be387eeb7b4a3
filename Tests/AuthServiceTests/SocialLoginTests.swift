import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// Apple and Kakao logins against local simulators of their documented APIs.
final class SocialLoginTests: XCTestCase {
    static let audience = "com.glint.app"

    func testAppleLoginCreatesThenFindsTheUser() async throws {
        let apple = try await AppleSimulator.start()
        let harness = try await AuthHarness.make(appleClientIDs: ["com.glint.web", Self.audience], apple: apple)
        try await harness.app.contractTest { client in
            let token = try await apple.identityToken(subject: "001234.apple.sub", audience: Self.audience)
            let first = try await client.send(
                .post, "/v1/users/login/apple", headers: harness.headers(), json: AppleLoginRequest(idToken: token, nick: "사과"))
            XCTAssertEqual(first.status, .ok, first.body.text)
            let object = try JSON.object(first.body)
            JSON.assertKeys(object, ["user_id", "email", "nick", "accessToken", "refreshToken"])
            XCTAssertEqual(object["email"] as? String, "", "a string even without an email")
            XCTAssertEqual(object["nick"] as? String, "사과")
            let again = try await client.send(
                .post, "/v1/users/login/apple", headers: harness.headers(),
                json: AppleLoginRequest(idToken: try await apple.identityToken(subject: "001234.apple.sub", audience: Self.audience)))
            XCTAssertEqual(try JSON.object(again.body)["user_id"] as? String, object["user_id"] as? String, "linked by sub")
            let withEmail = try await client.send(
                .post, "/v1/users/login/apple", headers: harness.headers(),
                json: AppleLoginRequest(
                    idToken: try await apple.identityToken(subject: "other.sub", audience: Self.audience, email: "hidden@privaterelay.appleid.com")))
            let withEmailObject = try JSON.object(withEmail.body)
            XCTAssertEqual(withEmailObject["email"] as? String, "hidden@privaterelay.appleid.com")
            XCTAssertTrue((withEmailObject["nick"] as? String)?.hasPrefix("apple_") == true, "a generated nick")
        }
        await apple.stop()
    }

    func testAppleForgeriesAndMismatches() async throws {
        let apple = try await AppleSimulator.start(keyID: "shared-kid")
        let forger = try await AppleSimulator.start(keyID: "shared-kid")
        let harness = try await AuthHarness.make(appleClientIDs: [Self.audience], apple: apple)
        try await harness.app.contractTest { client in
            let cases: [(String, String)] = [
                ("forged signature", try await forger.identityToken(subject: "s", audience: Self.audience)),
                ("wrong audience", try await apple.identityToken(subject: "s", audience: "com.someone.else")),
                ("expired", try await apple.identityToken(subject: "s", audience: Self.audience, expiresIn: -60)),
                ("wrong issuer", try await apple.identityToken(subject: "s", audience: Self.audience, issuer: "https://evil.example")),
                ("garbage", "not.a.token"),
            ]
            for (name, token) in cases {
                let response = try await client.send(
                    .post, "/v1/users/login/apple", headers: harness.headers(), json: AppleLoginRequest(idToken: token))
                XCTAssertEqual(response.status, .unauthorized, name)
                XCTAssertEqual(try JSON.object(response.body)["code"] as? String, "login_failed", name)
            }
        }
        await apple.stop()
        await forger.stop()
    }

    func testAppleNotConfiguredForTheApp() async throws {
        let apple = try await AppleSimulator.start()
        let harness = try await AuthHarness.make(apple: apple)
        try await harness.app.contractTest { client in
            let token = try await apple.identityToken(subject: "s", audience: Self.audience)
            let response = try await client.send(.post, "/v1/users/login/apple", headers: harness.headers(), json: AppleLoginRequest(idToken: token))
            XCTAssertEqual(response.status, .badRequest)
        }
        await apple.stop()
    }

    func testKakaoLogin() async throws {
        let kakao = try await KakaoSimulator.start()
        let harness = try await AuthHarness.make(kakaoAppID: "1234", kakao: kakao)
        try await harness.app.contractTest { client in
            let token = kakao.issueToken(for: .init(userID: 99_001, appID: 1234, nickname: "카카오친구", email: "friend@kakao.com"))
            let response = try await client.send(
                .post, "/v1/users/login/kakao", headers: harness.headers(), json: KakaoLoginRequest(oauthToken: token))
            XCTAssertEqual(response.status, .ok, response.body.text)
            let object = try JSON.object(response.body)
            JSON.assertKeys(object, ["user_id", "email", "nick", "accessToken", "refreshToken"])
            XCTAssertEqual(object["nick"] as? String, "카카오친구")
            XCTAssertEqual(object["email"] as? String, "friend@kakao.com")
            let again = try await client.send(
                .post, "/v1/users/login/kakao", headers: harness.headers(),
                json: KakaoLoginRequest(oauthToken: kakao.issueToken(for: .init(userID: 99_001, appID: 1234))))
            XCTAssertEqual(try JSON.object(again.body)["user_id"] as? String, object["user_id"] as? String, "linked by Kakao user id")

            let otherApp = kakao.issueToken(for: .init(userID: 99_002, appID: 5678))
            let refused = try await client.send(
                .post, "/v1/users/login/kakao", headers: harness.headers(), json: KakaoLoginRequest(oauthToken: otherApp))
            XCTAssertEqual(refused.status, .unauthorized, "a token of another Kakao app")
            let unknown = try await client.send(
                .post, "/v1/users/login/kakao", headers: harness.headers(), json: KakaoLoginRequest(oauthToken: "made-up"))
            XCTAssertEqual(unknown.status, .unauthorized)
        }
        await kakao.stop()
    }

    func testKakaoUnreachableIs503() async throws {
        let harness = try await AuthHarness.make(kakaoAppID: "1234")
        try await harness.app.contractTest { client in
            let response = try await client.send(.post, "/v1/users/login/kakao", headers: harness.headers(), json: KakaoLoginRequest(oauthToken: "t"))
            XCTAssertEqual(response.status, .serviceUnavailable)
        }
    }
}
