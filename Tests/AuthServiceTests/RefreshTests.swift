import Contracts
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

final class RefreshTests: XCTestCase {
    private static func refresh(
        _ client: some TestClientProtocol, _ harness: AuthHarness, access: String, refresh: String?, header: String = "RefreshToken"
    ) async throws -> TestResponse {
        try await client.execute(uri: "/v1/auth/refresh", method: .get, headers: harness.headers(token: access, refresh.map { [(header, $0)] } ?? []))
    }

    func testRotationWithAnExpiredAccessToken() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "r@glint.app")
            let expired = try await harness.expiredToken(for: auth)
            let response = try await Self.refresh(client, harness, access: expired, refresh: auth.refreshToken)
            XCTAssertEqual(response.status, .ok)
            let object = try JSON.object(response.body)
            JSON.assertKeys(object, ["accessToken", "refreshToken"])
            let pair = try JSONDecoder().decode(TokenPair.self, from: response.body)
            XCTAssertNotEqual(pair.refreshToken, auth.refreshToken)
            XCTAssertEqual(AuthHarness.claims(of: pair.accessToken)?.sid, AuthHarness.claims(of: auth.accessToken)?.sid, "same session")
            let works = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: pair.accessToken))
            XCTAssertEqual(works.status, .ok)
            let second = try await Self.refresh(client, harness, access: pair.accessToken, refresh: pair.refreshToken, header: "Refresh")
            XCTAssertEqual(second.status, .ok, "the `Refresh` spelling works too")
        }
    }

    func testReuseAfterTheGraceWindowKillsTheFamily() async throws {
        let harness = try await AuthHarness.make(reuseGrace: 0)
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "reuse@glint.app")
            let first = try JSONDecoder().decode(
                TokenPair.self, from: try await Self.refresh(client, harness, access: auth.accessToken, refresh: auth.refreshToken).body)
            let stolen = try await Self.refresh(client, harness, access: auth.accessToken, refresh: auth.refreshToken)
            XCTAssertEqual(stolen.status.code, 418)
            XCTAssertEqual(try JSON.object(stolen.body)["code"] as? String, "refresh_invalid")
            let legitimate = try await Self.refresh(client, harness, access: first.accessToken, refresh: first.refreshToken)
            XCTAssertEqual(legitimate.status.code, 418, "the whole family is dead")
            let access = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: first.accessToken))
            XCTAssertEqual(access.status, .unauthorized)
            // Another login of the same user is another family and unaffected.
            let login = try await client.send(
                .post, "/v1/users/login", headers: harness.headers(), json: LoginRequest(email: "reuse@glint.app", password: "pass1234!"))
            XCTAssertEqual(login.status, .ok)
        }
    }

    func testConcurrentRefreshesWithinTheGraceWindow() async throws {
        let harness = try await AuthHarness.make(reuseGrace: 30)
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "twice@glint.app")
            async let one = Self.refresh(client, harness, access: auth.accessToken, refresh: auth.refreshToken)
            async let two = Self.refresh(client, harness, access: auth.accessToken, refresh: auth.refreshToken)
            let (a, b) = try await (one, two)
            XCTAssertEqual(a.status, .ok)
            XCTAssertEqual(b.status, .ok)
            let pair = try JSONDecoder().decode(TokenPair.self, from: b.body)
            let next = try await Self.refresh(client, harness, access: pair.accessToken, refresh: pair.refreshToken)
            XCTAssertEqual(next.status, .ok, "the device stays logged in: \(next.body.text)")
        }
    }

    func testMissingUnknownAndForeignTokens() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "m@glint.app")
            let other = try await client.join(harness, email: "o@glint.app")
            let noHeader = try await Self.refresh(client, harness, access: auth.accessToken, refresh: nil)
            XCTAssertEqual(noHeader.status.code, 418, "apps without the flag must send the refresh token")
            let unknown = try await Self.refresh(client, harness, access: auth.accessToken, refresh: "not-a-token")
            XCTAssertEqual(unknown.status.code, 418)
            let mixed = try await Self.refresh(client, harness, access: auth.accessToken, refresh: other.refreshToken)
            XCTAssertEqual(mixed.status.code, 418, "a refresh token of another session")
            let noAccess = try await client.execute(
                uri: "/v1/auth/refresh", method: .get, headers: harness.headers([("RefreshToken", auth.refreshToken)]))
            XCTAssertEqual(noAccess.status, .unauthorized)
            let forged = try await Self.refresh(client, harness, access: try await TestKeys.make().token(), refresh: auth.refreshToken)
            XCTAssertEqual(forged.status, .unauthorized)
        }
    }

    func testAccessTokenOnlyFlag() async throws {
        let harness = try await AuthHarness.make(appFlags: AppFlags(refreshWithAccessTokenOnly: true))
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "glint@glint.app")
            let response = try await Self.refresh(client, harness, access: try await harness.expiredToken(for: auth), refresh: nil)
            XCTAssertEqual(response.status, .ok)
            let pair = try JSONDecoder().decode(TokenPair.self, from: response.body)
            _ = try await client.execute(uri: "/v1/users/logout", method: .post, headers: harness.headers(token: pair.accessToken))
            let afterLogout = try await Self.refresh(client, harness, access: pair.accessToken, refresh: nil)
            XCTAssertEqual(afterLogout.status.code, 418, "a revoked session cannot come back")
        }
    }
}
