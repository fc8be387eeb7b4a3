import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// The reports queue through admin-svc: groups with previews, and the three actions, each asked of
/// the owning service, closing the group and written to the audit log.
final class ReportQueueTests: XCTestCase {
    static let story = "6740369b3a36e82f532ec7aa", author = "6740369b3a36e82f532ec7bb", reader = "6740369b3a36e82f532ec7cc"
    static let app = AdminHarness.quotehub.appID

    static func seed(_ harness: AdminHarness) {
        harness.bans.content.withLock {
            $0[story] = ContentSummary(kind: .story, id: story, appId: app, authorId: author, preview: "나쁜 이야기", hidden: false)
        }
        harness.bans.reports.withLock {
            $0[app] = [
                ReportGroupAnswer(
                    targetType: "bookstory", targetId: story, state: "open", oldestAt: "2026-11-25T10:00:00.000Z", ageSeconds: 90_000, reporters: 2,
                    reasons: ["spam"], reports: []),
                ReportGroupAnswer(
                    targetType: "user", targetId: author, state: "open", oldestAt: "2026-11-26T10:00:00.000Z", ageSeconds: 600, reporters: 1,
                    reasons: [], reports: []),
            ]
        }
    }

    func testTheQueueShowsEachTargetAsTheAppDoes() async throws {
        let harness = try await AdminHarness.make()
        Self.seed(harness)
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["QuoteHub"])
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, moderator)
            let queue = try await client.execute(uri: "/admin/api/apps/\(Self.app)/reports?state=open", method: .get, headers: session.headers())
            XCTAssertEqual(queue.status, .ok, String(buffer: queue.body))
            let groups = try JSONCoding.decoder.decode([ReportGroupAnswer].self, from: queue.body)
            XCTAssertEqual(groups.map(\.targetId), [Self.story, Self.author], "oldest first, as auth-svc grouped them")
            XCTAssertEqual(groups[0].preview, "나쁜 이야기")
            XCTAssertEqual(groups[0].authorId, Self.author)
            XCTAssertEqual(groups[1].preview, "nick-" + Self.author.suffix(4))
            let first = try XCTUnwrap(try JSON.array(queue.body).first)
            XCTAssertTrue(
                Set(["targetType", "targetId", "state", "oldestAt", "ageSeconds", "reporters", "reasons", "reports"]).isSubset(of: first.keys))
            let badKind = try await client.execute(uri: "/admin/api/apps/\(Self.app)/reports?kind=theme", method: .get, headers: session.headers())
            XCTAssertEqual(badKind.status, .badRequest)
            let elsewhere = try await client.execute(
                uri: "/admin/api/apps/\(AdminHarness.glint.appID)/reports", method: .get, headers: session.headers())
            XCTAssertEqual(elsewhere.status, .notFound)
        }
    }

    func testAContentServiceThatDoesNotAnswerLeavesItsPreviewsOutAndSaysSo() async throws {
        let recent = RecentLogLines(capacity: 100)
        let harness = try await AdminHarness.make(logger: Logger(label: "admin-svc") { RecordingLogHandler(label: $0, recent: recent) })
        Self.seed(harness)
        harness.bans.unreachable.withLock { $0 = .story }
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["QuoteHub"])
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, moderator)
            var headers = session.headers()
            headers[HTTPField.Name("x-request-id")!] = "queue-without-stories"
            let queue = try await client.execute(uri: "/admin/api/apps/\(Self.app)/reports", method: .get, headers: headers)
            XCTAssertEqual(queue.status, .ok, String(buffer: queue.body))
            let groups = try JSONCoding.decoder.decode([ReportGroupAnswer].self, from: queue.body)
            XCTAssertEqual(groups.map(\.targetId), [Self.story, Self.author], "the queue, whole")
            XCTAssertNil(groups[0].preview, "the story's service did not answer")
            XCTAssertEqual(groups[1].preview, "nick-" + Self.author.suffix(4), "the user's preview comes from auth-svc")
            let lines = recent.lines(of: "queue-without-stories").filter { $0.message == "report previews left out" }
            XCTAssertEqual(lines.count, 1)
            XCTAssertEqual(lines.first?.level, "warning")
            XCTAssertEqual(lines.first?.metadata["kind"], "story")
            XCTAssertEqual(lines.first?.metadata["count"], "1")
        }
    }

    func testHideAndBanFromTheQueueActAndCloseTheGroup() async throws {
        let harness = try await AdminHarness.make()
        Self.seed(harness)
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["QuoteHub"])
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, moderator)
            let hide = try await client.execute(
                uri: "/admin/api/apps/\(Self.app)/reports/story/\(Self.story)/hide", method: .post, headers: session.headers(),
                body: JSONCoding.encode(ReportActionRequest(reason: "abusive")))
            XCTAssertEqual(hide.status, .ok, String(buffer: hide.body))
            XCTAssertEqual(try JSONCoding.decoder.decode(ReportActionAnswer.self, from: hide.body), ReportActionAnswer(closed: 2, action: "hidden"))
            XCTAssertEqual(harness.bans.content.withLock { $0[Self.story]?.hiddenBy }, moderator.id)

            let ban = try await client.execute(
                uri: "/admin/api/apps/\(Self.app)/reports/story/\(Self.story)/ban", method: .post, headers: session.headers(),
                body: JSONCoding.encode(ReportActionRequest(reason: "repeat offender")))
            XCTAssertEqual(ban.status, .ok, String(buffer: ban.body))
            XCTAssertEqual(harness.bans.asked.withLock { $0.map(\.userID) }, [Self.author], "the story's author is banned")
            XCTAssertEqual(harness.bans.closings.withLock { $0.map(\.action) }, ["hidden", "banned"])
            XCTAssertEqual(harness.bans.closings.withLock { $0.map(\.targetType) }, ["bookstory", "bookstory"])

            let dismiss = try await client.execute(
                uri: "/admin/api/apps/\(Self.app)/reports/user/\(Self.reader)/dismiss", method: .post, headers: session.headers(),
                body: JSONCoding.encode(ReportActionRequest()))
            XCTAssertEqual(dismiss.status, .ok)
            let hideUser = try await client.execute(
                uri: "/admin/api/apps/\(Self.app)/reports/user/\(Self.reader)/hide", method: .post, headers: session.headers(),
                body: JSONCoding.encode(ReportActionRequest()))
            XCTAssertEqual(hideUser.status, .badRequest, "a user is banned, not hidden")
            let unknown = try await client.execute(
                uri: "/admin/api/apps/\(Self.app)/reports/story/\(Self.story)/delete", method: .post, headers: session.headers(),
                body: JSONCoding.encode(ReportActionRequest()))
            XCTAssertEqual(unknown.status, .notFound)

            let ownerSession = try await AdminHarness.session(client, owner)
            let log = try await client.execute(uri: "/admin/api/audit?app=\(Self.app)", method: .get, headers: ownerSession.headers())
            let actions = try JSONCoding.decoder.decode([AuditEntryAnswer].self, from: log.body).map(\.action)
            XCTAssertEqual(actions, ["reports.close", "reports.close", "user.ban", "reports.close", "content.hide"], "newest first")
            let hidden = try XCTUnwrap(
                try JSONCoding.decoder.decode([AuditEntryAnswer].self, from: log.body).first { $0.action == "content.hide" })
            XCTAssertTrue(hidden.before?.contains("\"hidden\":false") == true, hidden.before ?? "")
            XCTAssertTrue(hidden.after?.contains("\"hidden\":true") == true, hidden.after ?? "")
        }
    }

    func testContentCanBeFoundHiddenAndRestored() async throws {
        let harness = try await AdminHarness.make()
        Self.seed(harness)
        let admin = try await harness.addOperator("admin@example.com", role: .admin, apps: ["QuoteHub"])
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, admin)
            let path = "/admin/api/apps/\(Self.app)/content/story/\(Self.story)"
            let shown = try await client.execute(uri: path, method: .get, headers: session.headers())
            XCTAssertEqual(shown.status, .ok)
            JSON.assertKeys(try JSON.object(shown.body), ["kind", "id", "appId", "authorId", "preview", "files", "createdAt", "hidden"])
            let hidden = try await client.execute(
                uri: path + "/hide", method: .post, headers: session.headers(), body: JSONCoding.encode(AdminActionRequest(reason: "x")))
            XCTAssertTrue(try JSONCoding.decoder.decode(ContentSummary.self, from: hidden.body).hidden)
            let restored = try await client.execute(uri: path + "/restore", method: .post, headers: session.headers())
            XCTAssertEqual(restored.status, .ok, "no body: the reason is optional")
            XCTAssertFalse(try JSONCoding.decoder.decode(ContentSummary.self, from: restored.body).hidden)
            let notJSON = try await client.execute(uri: path + "/hide", method: .post, headers: session.headers(), body: ByteBuffer(string: "{oops"))
            XCTAssertEqual(notJSON.status, .badRequest)
            let badKind = try await client.execute(
                uri: "/admin/api/apps/\(Self.app)/content/book/\(Self.story)", method: .get, headers: session.headers())
            XCTAssertEqual(badKind.status, .notFound)
            let missing = try await client.execute(
                uri: "/admin/api/apps/\(Self.app)/content/post/\(Self.reader)", method: .get, headers: session.headers())
            XCTAssertEqual(missing.status, .notFound)
        }
    }
}
