import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// API.md §9's `/block-report/…`, key by key, in the envelope.
final class QuotehubBlockReportTests: XCTestCase {
    func testBlocksAndReports() async throws {
        let fixture = try await QuotehubFixture.make()
        try await fixture.harness.app.contractTest { client in
            let alice = try await fixture.signIn(client, subject: "alice.sub"), bob = try await fixture.signIn(client, subject: "bob.sub")
            func post(_ path: String, _ body: some Encodable) async throws -> TestResponse {
                try await client.execute(uri: path, method: .post, headers: fixture.headers(token: alice.token), body: JSONCoding.encode(body))
            }
            func get(_ path: String) async throws -> [[String: Any]] {
                let answer = try await client.execute(uri: path, method: .get, headers: fixture.headers(token: alice.token))
                XCTAssertEqual(answer.status, .ok, answer.body.text)
                return try XCTUnwrap(try JSON.object(answer.body)["data"] as? [[String: Any]])
            }
            func assertNull(_ answer: TestResponse, file: StaticString = #filePath, line: UInt = #line) throws {
                XCTAssertEqual(answer.status, .ok, answer.body.text, file: file, line: line)
                let body = try JSON.object(answer.body)
                JSON.assertKeys(body, ["success", "message", "data"], file: file, line: line)
                XCTAssertTrue(body["data"] is NSNull, file: file, line: line)
            }
            func expect(_ status: Int, _ answer: TestResponse, _ label: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
                XCTAssertEqual(
                    try JSONDecoder().decode(CanonicalError.self, from: answer.body).code.quotehubStatus, status, label, file: file, line: line)
            }

            try assertNull(try await post("/block-report/block", BlockTarget(targetUserId: bob.userID)))
            let blocked = try await get("/block-report/blocked-users")
            XCTAssertEqual(blocked.map { $0["_id"] as? String }, [bob.userID])
            JSON.assertKeys(blocked[0], ["_id", "nickname", "profileImage"])
            try expect(404, try await post("/block-report/block", BlockTarget(targetUserId: "6740369b3a36e82f532ec7ff")))
            try assertNull(try await post("/block-report/unblock", BlockTarget(targetUserId: bob.userID)))
            let none = try await get("/block-report/blocked-users")
            XCTAssertEqual(none.count, 0)

            let story = "6740369b3a36e82f532ec7aa"
            try assertNull(try await post("/block-report/report", ReportTarget(targetId: bob.userID, type: "user", reason: "스팸")))
            try assertNull(try await post("/block-report/report", ReportTarget(targetId: story, type: "bookstory")))
            try expect(400, try await post("/block-report/report", ReportTarget(targetId: story, type: "bookstory")), "a duplicate is 400")
            try expect(400, try await post("/block-report/report", ReportTarget(targetId: story, type: "comment")))
            let reports = try await get("/block-report/reports")
            XCTAssertEqual(reports.count, 2)
            for report in reports {
                JSON.assertKeys(report, ["_id", "targetId", "reporterId", "type", "reason", "onModel", "createdAt", "updatedAt"])
                XCTAssertEqual((report["reporterId"] as? [String: Any])?["_id"] as? String, alice.userID)
            }
            XCTAssertEqual(Set(reports.compactMap { $0["onModel"] as? String }), ["User", "BookStory"])
            try assertNull(try await post("/block-report/cancel-report", ReportTarget(targetId: story, type: "bookstory")))
            try expect(404, try await post("/block-report/cancel-report", ReportTarget(targetId: story, type: "bookstory")))
            let left = try await get("/block-report/reports")
            XCTAssertEqual(left.map { $0["targetId"] as? String }, [bob.userID])
            try assertNull(try await post("/block-report/report", ReportTarget(targetId: story, type: "bookstory")))
            // What market-svc asks to hide from alice's lists: bob (reported) and the story.
            let hidden = try await client.execute(uri: "/internal/users/\(alice.userID)/hidden", method: .get, headers: fixture.headers())
            XCTAssertEqual(try JSONDecoder().decode(HiddenContent.self, from: hidden.body), HiddenContent(userIDs: [bob.userID], storyIDs: [story]))
            try assertNull(try await post("/block-report/cancel-report", ReportTarget(targetId: story, type: "bookstory")))
            let anonymous = try await client.execute(uri: "/block-report/reports", method: .get, headers: fixture.headers())
            try expect(401, anonymous)
        }
        await fixture.apple.stop()
    }
}
