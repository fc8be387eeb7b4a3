import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// API.md §8's auth table for a workspace (`slp`) app, key by key: AuthOut with the tokens
/// nested, Me with the wallet's coins, User, refresh without rotation, and the codes the table
/// names (E03, E05, E06, E11, E12).
final class WorkspaceAccountContractTests: XCTestCase {
    static let audience = "com.freeworkers.app"
    static let authOutKeys: Set<String> = ["user_id", "email", "nickname", "profileImage", "phone", "provider", "createdAt", "token"]
    static let meKeys: Set<String> = ["user_id", "email", "nickname", "profileImage", "phone", "provider", "sesacCoin", "createdAt"]

    private struct Workspace {
        let harness: AuthHarness
        let appID: String

        func headers(token: String? = nil, _ extra: [(String, String)] = []) -> HTTPFields {
            TestEnvironment.fields(app: appID, extra: [(InternalHeader.appProfile, "slp")] + (token.map { [("Authorization", $0)] } ?? []) + extra)
        }
    }

    private static func code(_ response: TestResponse, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try JSONCoding.decoder.decode(CanonicalError.self, from: Data(response.body.readableBytesView)).code.slpCode
    }

    func testJoinLoginMeAndUsers() async throws {
        let apple = try await AppleSimulator.start()
        let harness = try await AuthHarness.make(apple: apple)
        let registered = try await harness.apps.create(
            name: "Freeworkers", profile: .slp, flags: AppFlags(socketAuthOptional: true), key: "freeworkers-key",
            appleClientIDs: [Self.audience], kakaoAppID: "")
        let app = Workspace(harness: harness, appID: registered.id)
        try await harness.app.contractTest { client in
            let free = try await client.send(
                .post, "/v1/users/validation/email", headers: app.headers(), json: EmailValidationRequest(email: "fw@glint.app"))
            XCTAssertEqual(free.status, .ok)
            XCTAssertEqual(try JSON.object(free.body).count, 0, "{}")
            let invalid = try await client.send(
                .post, "/v1/users/validation/email", headers: app.headers(), json: EmailValidationRequest(email: "nope"))
            XCTAssertEqual(try Self.code(invalid), "E11")

            let joined = try await client.send(
                .post, "/v1/users/join", headers: app.headers(),
                json: SlpJoinRequest(email: "fw@glint.app", password: "pass1234!", nickname: "프리", phone: "01012345678"))
            XCTAssertEqual(joined.status, .ok, joined.body.text)
            let authOut = try JSON.object(joined.body)
            XCTAssertTrue(
                Set(authOut.keys).isSubset(of: Self.authOutKeys)
                    && Set(authOut.keys).isSuperset(of: ["user_id", "email", "nickname", "createdAt", "token"]),
                "\(authOut.keys)")
            XCTAssertEqual(authOut["nickname"] as? String, "프리")
            XCTAssertEqual(authOut["phone"] as? String, "01012345678")
            XCTAssertNotNil(GlintDate.milliseconds(from: try JSON.string(authOut, "createdAt")))
            let token = try XCTUnwrap(authOut["token"] as? [String: Any])
            JSON.assertKeys(token, ["accessToken", "refreshToken"])
            let access = try JSON.string(token, "accessToken")
            let userID = try JSON.string(authOut, "user_id")
            let taken = try await client.send(
                .post, "/v1/users/validation/email", headers: app.headers(), json: EmailValidationRequest(email: "fw@glint.app"))
            XCTAssertEqual(try Self.code(taken), "E12")
            let twice = try await client.send(
                .post, "/v1/users/join", headers: app.headers(),
                json: SlpJoinRequest(email: "fw@glint.app", password: "pass1234!", nickname: "again"))
            XCTAssertEqual(try Self.code(twice), "E12")
            let noNickname = try await client.send(
                .post, "/v1/users/join", headers: app.headers(), json: RawJSON(["email": "x@glint.app", "password": "pass1234!"]))
            XCTAssertEqual(try Self.code(noNickname), "E11")

            let wrong = try await client.send(
                .post, "/v1/users/login", headers: app.headers(), json: LoginRequest(email: "fw@glint.app", password: "wrong123!"))
            XCTAssertEqual(try Self.code(wrong), "E03")
            let login = try await client.send(
                .post, "/v1/users/login", headers: app.headers(), json: LoginRequest(email: "fw@glint.app", password: "pass1234!"))
            XCTAssertEqual(login.status, .ok)
            XCTAssertTrue(Set(try JSON.object(login.body).keys).isSubset(of: Self.authOutKeys))

            // Me: the wallet's coins, the signup grant made before the join answered (the outbox
            // makes it again, granted once).
            let meObject = try JSON.object(try await client.execute(uri: "/v1/users/me", method: .get, headers: app.headers(token: access)).body)
            XCTAssertTrue(
                Set(meObject.keys).isSubset(of: Self.meKeys)
                    && Set(meObject.keys).isSuperset(of: ["user_id", "email", "nickname", "sesacCoin", "createdAt"]))
            XCTAssertEqual(meObject["provider"] as? String, "email")
            XCTAssertEqual(meObject["sesacCoin"] as? Int, 100, "SLP_SIGNUP_COINS in the wallet")

            let renamed = try await client.send(.put, "/v1/users/me", headers: app.headers(token: access), json: SlpMeUpdate(nickname: "새이름"))
            XCTAssertEqual(try JSON.object(renamed.body)["nickname"] as? String, "새이름", "echoes the changed key")
            let rephoned = try await client.send(.put, "/v1/users/me", headers: app.headers(token: access), json: SlpMeUpdate(phone: "01099998888"))
            XCTAssertEqual(try JSON.object(rephoned.body)["phone"] as? String, "01099998888")
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)
            let form = MultipartBody(parts: [.file("image", filename: "me.png", contentType: "image/png", bytes: png)])
            let imaged = try await client.execute(
                uri: "/v1/users/me/image", method: .put,
                headers: app.headers(token: access, [("Content-Type", form.contentType)]), body: form.buffer)
            XCTAssertEqual(imaged.status, .ok, imaged.body.text)
            XCTAssertTrue((try JSON.object(imaged.body)["profileImage"] as? String)?.hasPrefix("/data/profiles/") == true)

            let user = try await client.execute(uri: "/v1/users/\(userID)", method: .get, headers: app.headers(token: access))
            JSON.assertKeys(try JSON.object(user.body), ["user_id", "email", "nickname", "profileImage"])
            let nobody = try await client.execute(uri: "/v1/users/6740369b3a36e82f532ec7ff", method: .get, headers: app.headers(token: access))
            XCTAssertEqual(try Self.code(nobody), "E03", "the code the app handles there")
            let lslpApp = try await client.execute(uri: "/v1/users/me", method: .get, headers: harness.headers(token: access))
            XCTAssertNotEqual(lslpApp.status, .ok, "§8 routes are not other apps' routes")

            // Apple for workspace apps: `nickname` in, AuthOut out.
            let identity = try await apple.identityToken(subject: "fw.apple.sub", audience: Self.audience)
            let appled = try await client.send(
                .post, "/v1/users/login/apple", headers: app.headers(), json: SlpAppleLoginRequest(idToken: identity, nickname: "사과"))
            XCTAssertEqual(appled.status, .ok, appled.body.text)
            let appleOut = try JSON.object(appled.body)
            XCTAssertEqual(appleOut["nickname"] as? String, "사과")
            XCTAssertEqual(appleOut["provider"] as? String, "apple")
            JSON.assertKeys(try XCTUnwrap(appleOut["token"] as? [String: Any]), ["accessToken", "refreshToken"])

            // An identity token that fails verification is a failed login, E03 (§8): signed by
            // another key under Apple's key id, for another app, from another issuer, expired.
            let impostor = try await AppleSimulator.start()
            let forged = try await impostor.identityToken(subject: "fw.apple.sub", audience: Self.audience)
            await impostor.stop()
            let refusedTokens = [
                forged,
                try await apple.identityToken(subject: "fw.apple.sub", audience: "com.other.app"),
                try await apple.identityToken(subject: "fw.apple.sub", audience: Self.audience, issuer: "https://issuer.invalid"),
                try await apple.identityToken(subject: "fw.apple.sub", audience: Self.audience, expiresIn: -120),
            ]
            for (index, token) in refusedTokens.enumerated() {
                let refused = try await client.send(
                    .post, "/v1/users/login/apple", headers: app.headers(), json: SlpAppleLoginRequest(idToken: token, nickname: "사과"))
                XCTAssertEqual(try Self.code(refused), "E03", "identity token \(index): \(refused.body.text)")
            }
        }
        await apple.stop()
    }

    func testRefreshIsNotRotatedAndExpiryCodes() async throws {
        let harness = try await AuthHarness.make()
        let registered = try await harness.apps.create(
            name: "Freeworkers", profile: .slp, flags: AppFlags(), key: "freeworkers-key", appleClientIDs: [], kakaoAppID: "")
        let app = Workspace(harness: harness, appID: registered.id)
        try await harness.app.contractTest { client in
            let joined = try await client.send(
                .post, "/v1/users/join", headers: app.headers(),
                json: SlpJoinRequest(email: "r@glint.app", password: "pass1234!", nickname: "r"))
            let tokens = try JSONDecoder().decode(SlpAuthOut.self, from: joined.body).extra.token
            let expired = try await harness.expiredToken(
                for: AuthAnswer(
                    userID: "", email: "", nick: "", profileImage: nil, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken))
            let stale = try await client.execute(uri: "/v1/users/me", method: .get, headers: app.headers(token: expired))
            XCTAssertEqual(try Self.code(stale), "E05")
            for attempt in 1...2 {
                let refreshed = try await client.execute(
                    uri: "/v1/auth/refresh", method: .get, headers: app.headers(token: expired, [("RefreshToken", tokens.refreshToken)]))
                XCTAssertEqual(refreshed.status, .ok, "attempt \(attempt): the app never stores a new refresh token")
                let body = try JSON.object(refreshed.body)
                JSON.assertKeys(body, ["accessToken"])
                let fresh = try JSON.string(body, "accessToken")
                let me = try await client.execute(uri: "/v1/users/me", method: .get, headers: app.headers(token: fresh))
                XCTAssertEqual(me.status, .ok)
            }
            let bogus = try await client.execute(
                uri: "/v1/auth/refresh", method: .get, headers: app.headers(token: expired, [("Refresh", "not-a-refresh-token")]))
            XCTAssertEqual(try Self.code(bogus), "E06")
        }
    }
}
