import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// The request log through admin-svc (issue 36): owners see every kept request, admins their
/// apps', moderators none; one request opens to every process's lines of it.
final class RequestLogDeskTests: XCTestCase {
    func testRolesFiltersAndATrace() async throws {
        let harness = try await AdminHarness.make()
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        let admin = try await harness.addOperator("admin@example.com", role: .admin, apps: ["GLINT"])
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator)
        try await harness.app.test(.router) { client in
            func get(_ session: AdminHarness.Session, _ path: String) async throws -> TestResponse {
                try await client.execute(uri: "/admin/api" + path, method: .get, headers: session.headers())
            }
            let ownerSession = try await AdminHarness.session(client, owner)
            let all = try JSONCoding.decoder.decode([RequestLogEntry].self, from: try await get(ownerSession, "/requests").body)
            XCTAssertEqual(all.map(\.requestId), [FakeRequestLog.failed, "req-quotehub", "req-nokey"])
            let statusAnswer = try await get(ownerSession, "/requests?status=401")
            let first = try XCTUnwrap(try JSON.array(statusAnswer.body).first)
            JSON.assertKeys(first, ["at", "requestId", "method", "route", "status", "latencyMs", "appId", "appName", "sampled"])
            let answer1 = try await get(ownerSession, "/requests?status=abc")
            XCTAssertEqual(answer1.status, .badRequest)

            let adminSession = try await AdminHarness.session(client, admin)
            let mine = try JSONCoding.decoder.decode([RequestLogEntry].self, from: try await get(adminSession, "/requests").body)
            XCTAssertEqual(mine.map(\.requestId), [FakeRequestLog.failed], "an admin sees its apps' requests only")
            let answer2 = try await get(adminSession, "/requests/req-nokey")
            XCTAssertEqual(answer2.status, .notFound)
            let modSession = try await AdminHarness.session(client, moderator)
            let answer3 = try await get(modSession, "/requests")
            XCTAssertEqual(answer3.status, .forbidden)

            let trace = try JSONCoding.decoder.decode(RequestTrace.self, from: try await get(adminSession, "/requests/\(FakeRequestLog.failed)").body)
            XCTAssertEqual(trace.entry?.status, 401)
            XCTAssertEqual(trace.lines.map(\.message), ["login refused"])
            XCTAssertEqual(trace.unreachable, ["push-svc"])

            var browser = ConsoleFormTests.Browser(client: client)
            try await browser.signIn(owner.withStep(1), firstTime: true)
            let page = String(buffer: try await browser.get("/admin/requests?request_id=\(FakeRequestLog.failed)").body)
            XCTAssertTrue(page.contains(#"href="/admin/requests/\#(FakeRequestLog.failed)""#), page)
            XCTAssertFalse(page.contains("req-quotehub"))
            let opened = String(buffer: try await browser.get("/admin/requests/\(FakeRequestLog.failed)").body)
            XCTAssertTrue(opened.contains(#"<dd id="status">401</dd>"#) && opened.contains("login refused"), opened)
            XCTAssertTrue(opened.contains("Not asked (unreachable): push-svc"))
        }
    }
}
