import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// Apps as operators manage them (issue 36): owners register, owners and admins change settings,
/// rotate keys with a grace and disable, moderators none of it; a key appears once, in the
/// answer, and never in the audit log. Through the API and through the console's forms.
final class AppManagementTests: XCTestCase {
    static let quotehub = AdminHarness.quotehub.appID, glint = AdminHarness.glint.appID

    func testRolesAndTheKeyShownOnce() async throws {
        let harness = try await AdminHarness.make()
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        let admin = try await harness.addOperator("admin@example.com", role: .admin, apps: ["QuoteHub"])
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["QuoteHub"])
        try await harness.app.test(.router) { client in
            let (ownerSession, adminSession, modSession) = (
                try await AdminHarness.session(client, owner), try await AdminHarness.session(client, admin),
                try await AdminHarness.session(client, moderator)
            )
            func call(
                _ session: AdminHarness.Session, _ method: HTTPRequest.Method, _ path: String, _ body: String? = nil
            ) async throws
                -> TestResponse
            {
                try await client.execute(
                    uri: "/admin/api" + path, method: method, headers: session.headers(body == nil ? [] : [("Content-Type", "application/json")]),
                    body: body.map { ByteBuffer(string: $0) })
            }
            func expect(
                _ session: AdminHarness.Session, _ method: HTTPRequest.Method, _ path: String, _ body: String? = nil, _ status: HTTPResponse.Status,
                _ message: String = "", line: UInt = #line
            ) async throws {
                let answer = try await call(session, method, path, body)
                XCTAssertEqual(answer.status, status, message + " " + String(buffer: answer.body), line: line)
            }
            let detail = try await call(adminSession, .get, "/apps/\(Self.quotehub)")
            XCTAssertEqual(detail.status, .ok)
            JSON.assertKeys(
                try JSON.object(detail.body),
                ["id", "name", "profile", "mount", "flags", "appleClientIds", "kakaoAppId", "keyHint", "disabled", "createdAt"])
            try await expect(adminSession, .get, "/apps/\(Self.glint)", nil, .notFound, "another app does not exist for it")
            try await expect(modSession, .get, "/apps/\(Self.quotehub)", nil, .forbidden)
            try await expect(modSession, .post, "/apps/\(Self.quotehub)/rotate-key", #"{"graceSeconds":60}"#, .forbidden)

            let rotated = try await call(adminSession, .post, "/apps/\(Self.quotehub)/rotate-key", #"{"graceSeconds":600}"#)
            XCTAssertEqual(rotated.status, .ok, String(buffer: rotated.body))
            let issued = try JSONCoding.decoder.decode(AppKeyIssued.self, from: rotated.body)
            XCTAssertEqual(issued.app.previousKeyHint, "abcd")
            let disabled = try await call(adminSession, .post, "/apps/\(Self.quotehub)/disable")
            XCTAssertTrue(try JSONCoding.decoder.decode(AppDetail.self, from: disabled.body).disabled)

            let registration =
                #"{"name":"New","profile":"slp","settings":{"flags":{"refresh_with_access_token_only":false,"empty_auth_error_bodies":false,"socket_auth_optional":false},"appleClientIds":[],"kakaoAppId":""}}"#
            try await expect(adminSession, .post, "/apps", registration, .forbidden, "owners register apps")
            let created = try await call(ownerSession, .post, "/apps", registration)
            XCTAssertEqual(created.status, .ok, String(buffer: created.body))
            let fresh = try JSONCoding.decoder.decode(AppKeyIssued.self, from: created.body)

            let log = try await call(ownerSession, .get, "/audit")
            let text = String(buffer: log.body)
            for action in ["app.rotate_key", "app.disable", "app.create"] { XCTAssertTrue(text.contains(action), action) }
            XCTAssertFalse(text.contains(issued.key) || text.contains(fresh.key), "keys never reach the audit log")
        }
    }

    func testTheAppsScreenFromForms() async throws {
        let harness = try await AdminHarness.make()
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        try await harness.app.test(.router) { client in
            var browser = ConsoleFormTests.Browser(client: client)
            try await browser.signIn(owner, firstTime: true)
            let list = try await browser.get("/admin/apps")
            XCTAssertTrue(String(buffer: list.body).contains(#"href="/admin/apps/\#(Self.quotehub)/settings""#))
            let page = try await browser.get("/admin/apps/\(Self.quotehub)/settings")
            XCTAssertEqual(page.status, .ok, String(buffer: page.body))
            let saved = try await browser.post(
                "/admin/apps/\(Self.quotehub)/settings", ["empty_auth_error_bodies": "on", "apple_client_ids": "a.b.c, d.e.f", "kakao_app_id": "42"])
            XCTAssertEqual(saved.headers[.location], "/admin/apps/\(Self.quotehub)/settings?done=app-changed", String(buffer: saved.body))
            let app = try XCTUnwrap(harness.bans.registry.apps.withLock { $0.first { $0.id == Self.quotehub } })
            XCTAssertEqual(app.appleClientIds, ["a.b.c", "d.e.f"])
            XCTAssertEqual(app.flags, AppFlags(emptyAuthErrorBodies: true))
            let halfAppleKey = try await browser.post("/admin/apps/\(Self.quotehub)/settings", ["apple_team_id": "TEAM"])
            XCTAssertEqual(halfAppleKey.status, .badRequest)

            let rotated = try await browser.post("/admin/apps/\(Self.quotehub)/rotate-key", ["grace_seconds": "86400"])
            XCTAssertEqual(rotated.status, .ok)
            let html = String(buffer: rotated.body)
            XCTAssertTrue(html.contains(#"<code id="key">key-"#), "the new key, shown once: \(html)")
            XCTAssertTrue(html.contains("keeps working until"))
            let again = String(buffer: try await browser.get("/admin/apps/\(Self.quotehub)/settings").body)
            XCTAssertFalse(again.contains(#"id="key""#), "not shown again")

            let disabled = try await browser.post("/admin/apps/\(Self.quotehub)/disable", [:])
            XCTAssertEqual(disabled.headers[.location], "/admin/apps/\(Self.quotehub)/settings?done=app-disabled")
            XCTAssertTrue(harness.bans.registry.apps.withLock { $0.first { $0.id == Self.quotehub }?.disabled } ?? false)

            let registered = try await browser.post("/admin/apps", ["name": "새 앱", "profile": "lslp", "socket_auth_optional": "on"])
            XCTAssertEqual(registered.status, .ok)
            XCTAssertTrue(String(buffer: registered.body).contains("새 앱"))
            XCTAssertEqual(harness.bans.registry.apps.withLock { $0.last?.flags.socketAuthOptional }, true)
        }
    }
}
