import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// Push for owners and admins (issue 36): deliveries per provider and failures, and a test
/// notification to one user's devices, through the API and the console's forms.
final class PushDeskTests: XCTestCase {
    static let glint = AdminHarness.glint.appID, user = "6740369b3a36e82f532ec7bb"

    func testStatsAndATestNotification() async throws {
        let harness = try await AdminHarness.make()
        let admin = try await harness.addOperator("admin@example.com", role: .admin, apps: ["GLINT"])
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["GLINT"])
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, admin)
            let stats = try await client.execute(uri: "/admin/api/apps/\(Self.glint)/push?hours=168", method: .get, headers: session.headers())
            XCTAssertEqual(stats.status, .ok)
            JSON.assertKeys(try JSON.object(stats.body), ["since", "notifications", "providers", "recentFailures"])
            XCTAssertEqual(try JSONCoding.decoder.decode(PushStats.self, from: stats.body).notifications, 168, "the window asked")
            let badWindow = try await client.execute(uri: "/admin/api/apps/\(Self.glint)/push?hours=0", method: .get, headers: session.headers())
            XCTAssertEqual(badWindow.status, .badRequest)
            let modSession = try await AdminHarness.session(client, moderator)
            let refused = try await client.execute(uri: "/admin/api/apps/\(Self.glint)/push", method: .get, headers: modSession.headers())
            XCTAssertEqual(refused.status, .forbidden)

            var browser = ConsoleFormTests.Browser(client: client)
            try await browser.signIn(admin.withStep(1), firstTime: true)
            let page = String(buffer: try await browser.get("/admin/apps/\(Self.glint)/push").body)
            XCTAssertTrue(page.contains("INTERNAL") && page.contains("…abcdef"), page)
            let sent = try await browser.post("/admin/apps/\(Self.glint)/push/test", ["user_id": Self.user, "title": "안녕", "body": "테스트"])
            XCTAssertEqual(sent.headers[.location], "/admin/apps/\(Self.glint)/push?done=test-push")
            XCTAssertEqual(harness.bans.testPushes.withLock { $0.map(\.userID) }, [Self.user])
            XCTAssertEqual(harness.bans.testPushes.withLock { $0.first?.request.title }, "안녕")
            let badUser = try await browser.post("/admin/apps/\(Self.glint)/push/test", ["user_id": "nope", "title": "t", "body": "b"])
            XCTAssertEqual(badUser.status, .notFound)
        }
    }
}
