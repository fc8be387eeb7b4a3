import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// The reports queue auth-svc keeps for admin-svc: an app's reports grouped by target, oldest
/// first, with reporters and reasons; closing a group records the action and moves it to `closed`.
final class ReportQueueContractTests: XCTestCase {
    static let post = "6740369b3a36e82f532ec7aa"

    func testReportsAreGroupedByTargetAndClosedWithTheAction() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let first = try await client.join(harness, email: "first@example.com", nick: "first")
            let second = try await client.join(harness, email: "second@example.com", nick: "second")
            let target = try await client.join(harness, email: "target@example.com", nick: "target")
            for (reporter, type, id, reason) in [
                (first, "post", Self.post, "spam"), (target, "user", first.userID, "rude"), (second, "post", Self.post, "abuse"),
            ] {
                let response = try await client.send(
                    .post, "/v1/reports", headers: harness.headers(token: reporter.accessToken),
                    json: ReportRequest(targetType: type, targetID: id, reason: reason))
                XCTAssertEqual(response.status, .ok, response.body.text)
            }
            let open = try await Self.queue(client, harness, ReportQueueQuery(state: "open"))
            // The overview's count without the queue: two targets, the oldest report a moment old.
            let summary = try await client.execute(uri: "/internal/reports/open-summary", method: .get, headers: harness.headers())
            let counted = try JSONCoding.decoder.decode(OpenReportsSummary.self, from: summary.body)
            XCTAssertEqual(counted.groups, 2)
            XCTAssertLessThan(try XCTUnwrap(counted.oldestAgeSeconds), 600)
            XCTAssertEqual(open.map(\.targetId), [Self.post, first.userID], "oldest group first")
            XCTAssertEqual(open[0].reporters, 2)
            XCTAssertEqual(open[0].reasons, ["spam", "abuse"])
            XCTAssertEqual(open[0].reports.map(\.reporterId), [first.userID, second.userID])
            XCTAssertEqual(open[0].targetType, "post")
            XCTAssertNil(open[0].action)
            let users = try await Self.queue(client, harness, ReportQueueQuery(state: "open", targetType: "user"))
            XCTAssertEqual(users.map(\.targetId), [first.userID])

            let closed = try await client.send(
                .post, "/internal/reports/close", headers: harness.headers(),
                json: ReportClosing(targetType: "post", targetID: Self.post, action: "hidden", operatorID: "op-1"))
            XCTAssertEqual(try JSONCoding.decoder.decode(ReportsClosed.self, from: closed.body).closed, 2)
            let stillOpen = try await Self.queue(client, harness, ReportQueueQuery(state: "open"))
            XCTAssertEqual(stillOpen.map(\.targetId), [first.userID])
            let done = try await Self.queue(client, harness, ReportQueueQuery(state: "closed"))
            XCTAssertEqual(done.map(\.targetId), [Self.post])
            XCTAssertEqual(done.first?.action, "hidden")
            let again = try await client.send(
                .post, "/internal/reports/close", headers: harness.headers(),
                json: ReportClosing(targetType: "post", targetID: Self.post, action: "hidden", operatorID: "op-1"))
            XCTAssertEqual(try JSONCoding.decoder.decode(ReportsClosed.self, from: again.body).closed, 0, "closed once")
            let otherApp = try await client.send(
                .post, "/internal/reports/queue", headers: TestEnvironment.fields(app: "another-app"), json: ReportQueueQuery(state: "open"))
            XCTAssertEqual(try JSONCoding.decoder.decode([ReportGroupAnswer].self, from: otherApp.body), [], "an app sees its own reports")
            for bad in [
                ReportQueueQuery(state: "all"), ReportQueueQuery(state: "open", targetType: "theme"), ReportQueueQuery(state: "open", limit: 0),
            ] {
                let response = try await client.send(.post, "/internal/reports/queue", headers: harness.headers(), json: bad)
                XCTAssertEqual(response.status, .badRequest)
            }
            let badAction = try await client.send(
                .post, "/internal/reports/close", headers: harness.headers(),
                json: ReportClosing(targetType: "post", targetID: Self.post, action: "deleted", operatorID: "op-1"))
            XCTAssertEqual(badAction.status, .badRequest)
        }
    }

    private static func queue(
        _ client: some TestClientProtocol, _ harness: AuthHarness, _ query: ReportQueueQuery
    ) async throws -> [ReportGroupAnswer] {
        let response = try await client.send(.post, "/internal/reports/queue", headers: harness.headers(), json: query)
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try JSONCoding.decoder.decode([ReportGroupAnswer].self, from: response.body)
    }
}
