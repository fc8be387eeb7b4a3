import Backup
import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// The overview (issue 36): each service's part, one that does not answer named; owners every app,
/// others an app of theirs; moderators no payments, push or processes; charts as inline SVG.
final class OverviewTests: XCTestCase {
    func testPartsRolesAndCharts() async throws {
        let harness = try await AdminHarness.make()
        ReportQueueTests.seed(harness)
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["QuoteHub"])
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, owner)
            let answer = try await client.execute(uri: "/admin/api/overview?days=30", method: .get, headers: session.headers())
            XCTAssertEqual(answer.status, .ok, String(buffer: answer.body))
            JSON.assertKeys(
                try JSON.object(answer.body),
                ["days", "users", "content", "paymentsToday", "openReports", "oldestReportAgeSeconds", "processes", "unavailable"])
            let overview = try JSONCoding.decoder.decode(Overview.self, from: answer.body)
            XCTAssertNil(overview.appId, "an owner's default: every app")
            XCTAssertEqual(overview.users?.newUsers.count, 30)
            XCTAssertEqual(overview.openReports, 2)
            XCTAssertEqual(overview.oldestReportAgeSeconds, 90_000)
            XCTAssertEqual(overview.unavailable, ["messages"], "chat-svc did not answer")
            XCTAssertEqual(overview.paymentsToday?.refunds, 1)
            XCTAssertEqual(Set(overview.processes.map(\.service)), Set(ServiceName.allCases.map(\.rawValue)))
            let badDays = try await client.execute(uri: "/admin/api/overview?days=91", method: .get, headers: session.headers())
            XCTAssertEqual(badDays.status, .badRequest)

            let modSession = try await AdminHarness.session(client, moderator)
            let noApp = try await client.execute(uri: "/admin/api/overview", method: .get, headers: modSession.headers())
            XCTAssertEqual(noApp.status, .badRequest, "every app is for owners")
            let quotehub = try await client.execute(
                uri: "/admin/api/overview?app=\(AdminHarness.quotehub.appID)", method: .get, headers: modSession.headers())
            let modView = try JSONCoding.decoder.decode(Overview.self, from: quotehub.body)
            XCTAssertNil(modView.paymentsToday)
            XCTAssertEqual(modView.processes, [])
            let glint = try await client.execute(
                uri: "/admin/api/overview?app=\(AdminHarness.glint.appID)", method: .get, headers: modSession.headers())
            XCTAssertEqual(glint.status, .notFound)

            var browser = ConsoleFormTests.Browser(client: client)
            try await browser.signIn(owner.withStep(1), firstTime: true)
            let page = String(buffer: try await browser.get("/admin?days=7").body)
            XCTAssertTrue(page.contains(#"<span class="figure" id="users-total">42</span>"#), page)
            XCTAssertTrue(page.contains("<svg viewBox=\"0 0 280 48\""), "charts as inline SVG")
            XCTAssertTrue(page.contains("<title>2026-11-16: 6</title>"), "a bar per day with its count")
            XCTAssertTrue(page.contains("Not shown (its service did not answer): messages"))
            XCTAssertFalse(page.contains("Last backup"), "none has run")

            // A backup that failed: in the API's overview and red on the page.
            try BackupStatusFile.record(in: harness.dataDirectory, snapshot: nil, error: "disk full", at: 1_764_216_000_000)
            await harness.backups.read()
            let failed = try await browser.get("/admin/api/overview")
            XCTAssertEqual(try JSONCoding.decoder.decode(Overview.self, from: failed.body).backup?.error, "disk full")
            let red = String(buffer: try await browser.get("/admin?days=7").body)
            XCTAssertTrue(
                red.contains(
                    #"<p id="backup" class="overdue">Last backup: failed at 2025-11-27T04:00:00.000Z: disk full; none has succeeded yet</p>"#), red)
            XCTAssertFalse(page.contains("style="), "no inline style: the CSP allows none")
        }
    }

    func testPrometheusCountsAreSummed() {
        let text = """
            # HELP http_requests_total HTTP requests answered
            http_requests_total{method="GET",route="/v1/posts",status="200"} 12
            http_requests_total{method="GET",route="/v1/posts",status="503"} 2
            http_requests_total{method="POST",route="/v1/posts",status="500"} 1
            http_request_duration_seconds_bucket{le="0.1"} 99
            """
        let (requests, errors) = ProcessMonitor.requestCounts(text)
        XCTAssertEqual(requests, 15)
        XCTAssertEqual(errors, 3)
    }
}
