import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// Issue 35's security list: sign-in by password and a TOTP code accepted once, the throttle,
/// sessions behind an HttpOnly cookie, CSRF on every state-changing call, app tokens refused.
final class SessionSecurityTests: XCTestCase {
    func testSignInAnswersTheCSRFTokenAndAStrictCookie() async throws {
        let harness = try await AdminHarness.make()
        let owner = try await harness.addOperator("Owner@Example.com", role: .owner)
        try await harness.app.test(.router) { client in
            let response = try await AdminHarness.signIn(client, owner, code: owner.code(steps: -1))
            XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            let cookie = try XCTUnwrap(response.headers[.setCookie])
            XCTAssertTrue(cookie.hasPrefix("glint_admin="))
            for attribute in ["Path=/admin", "HttpOnly", "SameSite=Strict"] { XCTAssertTrue(cookie.contains(attribute), cookie) }
            XCTAssertFalse(cookie.contains("Secure"), "plain HTTP: a Secure cookie would never come back")
            let body = try JSON.object(response.body)
            JSON.assertKeys(body, ["csrfToken", "operator", "expiresAt"])
            JSON.assertKeys(try XCTUnwrap(body["operator"] as? [String: Any]), ["id", "email", "role", "apps", "passwordChangeRequired"])
            XCTAssertEqual((body["operator"] as? [String: Any])?["email"] as? String, "owner@example.com")

            let overTLS = try await client.execute(
                uri: "/admin/api/session", method: .post,
                headers: AdminHarness.headers([("Content-Type", "application/json"), ("X-Forwarded-Proto", "https")]),
                body: JSONCoding.encode(OperatorSignIn(email: owner.email, password: owner.password, code: owner.code())))
            XCTAssertEqual(overTLS.status, .ok)
            XCTAssertTrue(try XCTUnwrap(overTLS.headers[.setCookie]).contains("; Secure"))

            let session = try await AdminHarness.session(client, owner.withStep(1))
            let shown = try await client.execute(uri: "/admin/api/session", method: .get, headers: session.headers(csrf: false))
            XCTAssertEqual(shown.status, .ok)
            XCTAssertEqual(try JSONCoding.decoder.decode(OperatorSessionAnswer.self, from: shown.body).csrfToken, session.csrf)
        }
    }

    func testNoSessionOrAnAppTokenIs401() async throws {
        let harness = try await AdminHarness.make()
        try await harness.app.test(.router) { client in
            let none = try await client.execute(uri: "/admin/api/apps", method: .get, headers: AdminHarness.headers())
            XCTAssertEqual(none.status, .unauthorized)
            let appToken = try await client.execute(
                uri: "/admin/api/apps", method: .get, headers: AdminHarness.headers([("Authorization", "Bearer eyJhbGciOiJFUzI1NiJ9.e30.c2ln")]))
            XCTAssertEqual(appToken.status, .unauthorized, "an app user's access token opens nothing here")
            let forged = try await client.execute(
                uri: "/admin/api/apps", method: .get, headers: AdminHarness.headers([("Cookie", "glint_admin=" + String(repeating: "A", count: 43))]))
            XCTAssertEqual(forged.status, .unauthorized)
        }
    }

    func testAReplayedCodeIsRefused() async throws {
        let harness = try await AdminHarness.make()
        let op = try await harness.addOperator("mod@example.com", role: .moderator)
        try await harness.app.test(.router) { client in
            let code = op.code()
            let first = try await AdminHarness.signIn(client, op, code: code)
            XCTAssertEqual(first.status, .ok)
            let replay = try await AdminHarness.signIn(client, op, code: code)
            XCTAssertEqual(replay.status, .unauthorized, "a code is accepted once")
            let earlier = try await AdminHarness.signIn(client, op, code: op.code(steps: -1))
            XCTAssertEqual(earlier.status, .unauthorized, "nor an earlier one after it")
            let wrong = try await AdminHarness.signIn(client, op, code: "000000" == op.code(steps: 1) ? "111111" : "000000")
            XCTAssertEqual(wrong.status, .unauthorized)
        }
    }

    func testTheSixthAttemptIsRefusedEvenWithTheRightPassword() async throws {
        let harness = try await AdminHarness.make()
        let op = try await harness.addOperator("admin@example.com", role: .admin)
        try await harness.app.test(.router) { client in
            var wrong = op
            wrong.password = "not-the-password"
            for _ in 0..<5 {
                let response = try await AdminHarness.signIn(client, wrong)
                XCTAssertEqual(response.status, .unauthorized)
            }
            let right = try await AdminHarness.signIn(client, op)
            XCTAssertEqual(right.status, .unauthorized, "locked for 15 minutes")
            XCTAssertEqual(
                try JSONCoding.decoder.decode(CanonicalError.self, from: right.body).message, "sign-in failed",
                "answered exactly as a wrong password is")
        }
    }

    func testStateChangingCallsNeedTheCSRFToken() async throws {
        let harness = try await AdminHarness.make()
        let op = try await harness.addOperator("mod@example.com", role: .moderator)
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, op)
            let body = JSONCoding.encode(AdminBanRequest(reason: "spam"))
            let uri = "/admin/api/apps/app-glint/users/6740369b3a36e82f532ec721/ban"
            let missing = try await client.execute(uri: uri, method: .post, headers: session.headers(csrf: false), body: body)
            XCTAssertEqual(missing.status, .forbidden)
            let wrong = try await client.execute(
                uri: uri, method: .post, headers: AdminHarness.headers([("Cookie", "glint_admin=\(session.cookie)"), ("X-CSRF-Token", "x")]),
                body: body)
            XCTAssertEqual(wrong.status, .forbidden)
            XCTAssertTrue(harness.bans.asked.withLock { $0.isEmpty }, "nothing was asked of auth-svc")
            let signOut = try await client.execute(uri: "/admin/api/session", method: .delete, headers: session.headers(csrf: false))
            XCTAssertEqual(signOut.status, .forbidden, "signing out changes state too")
        }
    }

    func testSignOutEndsTheSessionAndEverywhereEndsThemAll() async throws {
        let harness = try await AdminHarness.make()
        let op = try await harness.addOperator("owner@example.com", role: .owner)
        try await harness.app.test(.router) { client in
            let first = try await AdminHarness.session(client, op.withStep(-1))
            let second = try await AdminHarness.session(client, op)
            let third = try await AdminHarness.session(client, op.withStep(1))
            let out = try await client.execute(uri: "/admin/api/session", method: .delete, headers: first.headers())
            XCTAssertEqual(out.status, .ok)
            XCTAssertTrue(try XCTUnwrap(out.headers[.setCookie]).contains("Max-Age=0"))
            let gone = try await client.execute(uri: "/admin/api/session", method: .get, headers: first.headers())
            XCTAssertEqual(gone.status, .unauthorized)
            let stillIn = try await client.execute(uri: "/admin/api/session", method: .get, headers: second.headers())
            XCTAssertEqual(stillIn.status, .ok)
            let everywhere = try await client.execute(uri: "/admin/api/sessions", method: .delete, headers: second.headers())
            XCTAssertEqual(everywhere.status, .ok)
            for session in [second, third] {
                let response = try await client.execute(uri: "/admin/api/session", method: .get, headers: session.headers())
                XCTAssertEqual(response.status, .unauthorized)
            }
        }
    }

    func testAnAddressOutsideTheAllowListIsRefused() async throws {
        var configuration = AdminConfiguration()
        configuration.allowedNetworks = try XCTUnwrap(NetworkAllowList("10.0.0.0/8, 2001:db8::/32"))
        let harness = try await AdminHarness.make(configuration: configuration)
        let op = try await harness.addOperator("owner@example.com", role: .owner)
        try await harness.app.test(.router) { client in
            let outside = try await AdminHarness.signIn(client, op)
            XCTAssertEqual(outside.status, .forbidden)
            let inside = try await client.execute(
                uri: "/admin/api/session", method: .post, headers: AdminHarness.headers([("Content-Type", "application/json")], address: "10.1.2.3"),
                body: JSONCoding.encode(OperatorSignIn(email: op.email, password: op.password, code: op.code())))
            XCTAssertEqual(inside.status, .ok)
        }
        XCTAssertTrue(configuration.allowedNetworks.allows("2001:db8::1"))
        XCTAssertFalse(configuration.allowedNetworks.allows("2001:db9::1"))
        XCTAssertNil(NetworkAllowList("10.0.0.0/33"))
        XCTAssertNil(NetworkAllowList("not-an-address"))
    }
}
