import Contracts
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

final class AccountContractTests: XCTestCase {
    func testEmailValidation() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let free = try await client.send(
                .post, "/v1/users/validation/email", headers: harness.headers(), json: EmailValidationRequest(email: "new@glint.app"))
            XCTAssertEqual(free.status, .ok)
            XCTAssertEqual(try JSON.object(free.body) as? [String: String], ["message": "사용 가능한 이메일입니다."])
            _ = try await client.join(harness, email: "taken@glint.app")
            let taken = try await client.send(
                .post, "/v1/users/validation/email", headers: harness.headers(), json: EmailValidationRequest(email: "TAKEN@glint.app"))
            XCTAssertEqual(taken.status, .conflict)
            XCTAssertEqual(try JSON.object(taken.body)["code"] as? String, "conflict")
            for bad in ["", "no-at.example", "a@b", "a b@c.com", "@c.com", "a@.com"] {
                let response = try await client.send(
                    .post, "/v1/users/validation/email", headers: harness.headers(), json: EmailValidationRequest(email: bad))
                XCTAssertEqual(response.status, .badRequest, bad)
            }
            let missing = try await client.send(.post, "/v1/users/validation/email", headers: harness.headers(), json: RawJSON([:]))
            XCTAssertEqual(missing.status, .badRequest)
        }
    }

    func testJoinAnswerKeyByKey() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let response = try await client.send(
                .post, "/v1/users/join", headers: harness.headers(),
                json: JoinRequest(
                    email: "jack@glint.app", password: "pass1234!", nick: "jack", phoneNum: "01012345678", birthDay: "19990101", gender: "male"
                ))
            XCTAssertEqual(response.status, .ok)
            let object = try JSON.object(response.body)
            JSON.assertKeys(object, ["user_id", "userID", "email", "nick", "accessToken", "refreshToken"])
            let userID = try JSON.string(object, "user_id")
            XCTAssertTrue(ObjectID.isValid(userID))
            XCTAssertEqual(object["userID"] as? String, userID, "GLINT decodes userID")
            XCTAssertEqual(object["email"] as? String, "jack@glint.app")
            XCTAssertEqual(object["nick"] as? String, "jack")
            let claims = try XCTUnwrap(AuthHarness.claims(of: try JSON.string(object, "accessToken")))
            XCTAssertEqual(claims.sub.value, userID)
            XCTAssertEqual(claims.app, harness.appID)
            XCTAssertEqual(claims.exp.value.timeIntervalSince(claims.iat.value), 900, accuracy: 1)
            XCTAssertGreaterThanOrEqual(try JSON.string(object, "refreshToken").count, 43, "≥ 32 random bytes")

            let again = try await client.send(
                .post, "/v1/users/join", headers: harness.headers(), json: JoinRequest(email: "JACK@glint.app", password: "pass1234!", nick: "other"))
            XCTAssertEqual(again.status, .conflict)
        }
    }

    func testPasswordAndInputRules() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let bad = [
                "short1!", "nodigits!!", "nospecial123", "1234567!", "with space1!", "caret^1234a", String(repeating: "a1!", count: 25), "한글비밀번호1!",
            ]
            for password in bad {
                let response = try await client.send(
                    .post, "/v1/users/join", headers: harness.headers(), json: JoinRequest(email: "p@glint.app", password: password, nick: "p"))
                XCTAssertEqual(response.status, .badRequest, password)
                XCTAssertEqual(try JSON.object(response.body)["code"] as? String, "bad_request")
            }
            let longNick = try await client.send(
                .post, "/v1/users/join", headers: harness.headers(),
                json: JoinRequest(email: "n@glint.app", password: "pass1234!", nick: String(repeating: "n", count: 31)))
            XCTAssertEqual(longNick.status, .badRequest)
            let wrongType = try await client.execute(
                uri: "/v1/users/join", method: .post, headers: harness.headers([("content-type", "application/json")]),
                body: ByteBuffer(string: #"{"email": 1, "password": "pass1234!", "nick": "x"}"#))
            XCTAssertEqual(wrongType.status, .badRequest)
            _ = try await client.join(harness, email: "ok@glint.app", password: "Abcdefg1$")
        }
    }

    func testSameEmailInTwoApps() async throws {
        let harness = try await AuthHarness.make()
        let other = try await harness.apps.create(name: "Other", profile: .slp, flags: AppFlags(), key: "other-app-key")
        try await harness.app.contractTest { client in
            let first = try await client.join(harness, email: "twin@glint.app")
            let second = try await client.send(
                .post, "/v1/users/join", headers: TestEnvironment.fields(app: other.id),
                json: JoinRequest(email: "twin@glint.app", password: "pass1234!", nick: "twin"))
            XCTAssertEqual(second.status, .ok)
            XCTAssertNotEqual(try JSON.object(second.body)["user_id"] as? String, first.userID)
            // A token of one app is no key to the other.
            let crossed = try await client.execute(
                uri: "/v1/users/me/profile", method: .get,
                headers: TestEnvironment.fields(app: other.id, extra: [("Authorization", first.accessToken)]))
            XCTAssertEqual(crossed.status, .unauthorized)
        }
    }

    func testLoginAnswerAndFailures() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let joined = try await client.join(harness, email: "login@glint.app")
            let response = try await client.send(
                .post, "/v1/users/login", headers: harness.headers(), json: LoginRequest(email: "Login@glint.app", password: "pass1234!"))
            XCTAssertEqual(response.status, .ok)
            let object = try JSON.object(response.body)
            JSON.assertKeys(object, ["user_id", "email", "nick", "accessToken", "refreshToken"])
            XCTAssertEqual(object["user_id"] as? String, joined.userID)
            XCTAssertNotEqual(object["refreshToken"] as? String, joined.refreshToken, "a new session")
            for (email, password) in [
                ("login@glint.app", "wrong1234!"), ("nobody@glint.app", "pass1234!"), ("login@glint.app", String(repeating: "x", count: 100)),
            ] {
                let failed = try await client.send(
                    .post, "/v1/users/login", headers: harness.headers(), json: LoginRequest(email: email, password: password))
                XCTAssertEqual(failed.status, .unauthorized)
                XCTAssertEqual(try JSON.object(failed.body)["code"] as? String, "login_failed")
            }
        }
    }

    func testProtectedRoutesNeedAValidToken() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "t@glint.app")
            let none = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers())
            XCTAssertEqual(none.status, .unauthorized)
            let garbage = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: "abc.def.ghi"))
            XCTAssertEqual(garbage.status, .unauthorized)
            XCTAssertEqual(try JSON.object(garbage.body)["code"] as? String, "token_invalid")
            let expired = try await client.execute(
                uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: try await harness.expiredToken(for: auth)))
            XCTAssertEqual(expired.status.code, 419)
            XCTAssertEqual(try JSON.object(expired.body)["code"] as? String, "token_expired")
            let bearer = try await client.execute(
                uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: "Bearer " + auth.accessToken))
            XCTAssertEqual(bearer.status, .ok)
        }
    }

    func testLogoutAndWithdraw() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "bye@glint.app", nick: "bye")
            let logout = try await client.execute(uri: "/v1/users/logout", method: .post, headers: harness.headers(token: auth.accessToken))
            XCTAssertEqual(logout.status, .ok)
            XCTAssertEqual(try JSON.object(logout.body).count, 0, "{}")
            let after = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: auth.accessToken))
            XCTAssertEqual(after.status, .unauthorized, "revoked at once in auth-svc")
            let refresh = try await client.execute(
                uri: "/v1/auth/refresh", method: .get,
                headers: harness.headers(token: auth.accessToken, [("RefreshToken", auth.refreshToken)]))
            XCTAssertEqual(refresh.status.code, 418)

            let login = try await client.send(
                .post, "/v1/users/login", headers: harness.headers(), json: LoginRequest(email: "bye@glint.app", password: "pass1234!"))
            let pair = try JSONDecoder().decode(AuthAnswer.self, from: login.body)
            let token = pair.accessToken
            // A HEAD runs neither of the GETs that change state: the account stays, the token too.
            let headWithdraw = try await client.execute(uri: "/v1/users/withdraw", method: .head, headers: harness.headers(token: token))
            let headRefresh = try await client.execute(
                uri: "/v1/auth/refresh", method: .head, headers: harness.headers(token: token, [("RefreshToken", pair.refreshToken)]))
            XCTAssertEqual([headWithdraw.status.code, headRefresh.status.code], [444, 444])
            let stillHere = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: token))
            XCTAssertEqual(stillHere.status, .ok)
            let refreshed = try await client.execute(
                uri: "/v1/auth/refresh", method: .get, headers: harness.headers(token: token, [("RefreshToken", pair.refreshToken)]))
            XCTAssertEqual(refreshed.status, .ok, "the HEAD did not spend the refresh token")
            let head = try await client.execute(uri: "/v1/users/me/profile", method: .head, headers: harness.headers(token: token))
            XCTAssertEqual(head.status, .ok, "a GET that only reads has its HEAD")
            XCTAssertEqual(head.headers[.contentLength], "\(stillHere.body.readableBytes)")
            let withdraw = try await client.execute(uri: "/v1/users/withdraw", method: .get, headers: harness.headers(token: token))
            XCTAssertEqual(withdraw.status, .ok)
            XCTAssertEqual(try JSON.object(withdraw.body) as? [String: String], ["user_id": auth.userID, "email": "bye@glint.app", "nick": "bye"])
            let gone = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: token))
            XCTAssertEqual(gone.status, .forbidden)
            let rejoin = try await client.send(
                .post, "/v1/users/join", headers: harness.headers(), json: JoinRequest(email: "bye@glint.app", password: "pass1234!", nick: "back"))
            XCTAssertEqual(rejoin.status, .ok, "the email is free again")
        }
    }
}
