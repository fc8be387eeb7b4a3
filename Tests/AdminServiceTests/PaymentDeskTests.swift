import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// Payments for owners and admins (issue 36): found by imp_uid or user, refunded with a reason
/// (asked of payment-verify-svc, written to the audit log); moderators see none. Through the API
/// and the console's forms.
final class PaymentDeskTests: XCTestCase {
    static let glint = AdminHarness.glint.appID

    func testFindAndRefundThroughTheAPIAndTheConsole() async throws {
        let harness = try await AdminHarness.make()
        let admin = try await harness.addOperator("admin@example.com", role: .admin, apps: ["GLINT"])
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["GLINT"])
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, admin)
            let found = try await client.execute(
                uri: "/admin/api/apps/\(Self.glint)/payments?imp_uid=imp_100", method: .get, headers: session.headers())
            XCTAssertEqual(found.status, .ok, String(buffer: found.body))
            let first = try XCTUnwrap(try JSON.array(found.body).first)
            JSON.assertKeys(first, ["impUid", "merchantUid", "kind", "userId", "amount", "coins", "productName", "status", "paidAt"])
            let badLimit = try await client.execute(uri: "/admin/api/apps/\(Self.glint)/payments?limit=0", method: .get, headers: session.headers())
            XCTAssertEqual(badLimit.status, .badRequest)
            let modSession = try await AdminHarness.session(client, moderator)
            let refused = try await client.execute(uri: "/admin/api/apps/\(Self.glint)/payments", method: .get, headers: modSession.headers())
            XCTAssertEqual(refused.status, .forbidden, "payments are not a moderator's")

            var browser = ConsoleFormTests.Browser(client: client)
            try await browser.signIn(admin.withStep(1), firstTime: true)
            let page = String(buffer: try await browser.get("/admin/apps/\(Self.glint)/payments").body)
            XCTAssertTrue(page.contains("imp_100") && page.contains("필터"), page)
            let refunded = try await browser.post("/admin/apps/\(Self.glint)/payments/imp_100/refund", ["reason": "고객 요청"])
            XCTAssertEqual(refunded.headers[.location], "/admin/apps/\(Self.glint)/payments?imp_uid=imp_100&done=refunded")
            XCTAssertEqual(harness.bans.payments.withLock { $0.first?.status }, "cancelled")
            let after = String(buffer: try await browser.get("/admin/apps/\(Self.glint)/payments?imp_uid=imp_100").body)
            XCTAssertTrue(after.contains("cancelled · refunded"), after)
            let missing = try await browser.post("/admin/apps/\(Self.glint)/payments/imp_nope/refund", ["reason": "x"])
            XCTAssertEqual(missing.status, .notFound)

            // Choosing a password ended the API session; the browser's reads the audit log.
            let log = String(buffer: try await browser.get("/admin/audit?action=payment.refund").body)
            XCTAssertTrue(log.contains("<td>payment.refund</td>") && log.contains("payment imp_100"), log)
        }
    }
}
