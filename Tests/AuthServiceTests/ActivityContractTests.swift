import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// The overview's users (issue 36): an app's accounts, new ones per day and users with a session
/// opened or refreshed per day; every app's when the call names none.
final class ActivityContractTests: XCTestCase {
    func testUsersPerDayOfOneAppAndOfEvery() async throws {
        let harness = try await AuthHarness.make()
        let other = try await harness.apps.create(name: "Other", profile: .lslp, flags: AppFlags(), key: "other-app-key")
        try await harness.app.contractTest { client in
            _ = try await client.join(harness, email: "a@example.com", nick: "a")
            _ = try await client.join(harness, email: "b@example.com", nick: "b")
            let elsewhere = try await client.send(
                .post, "/v1/users/join", headers: TestEnvironment.fields(app: other.id),
                json: JoinRequest(email: "c@example.com", password: "pass1234!", nick: "c"))
            XCTAssertEqual(elsewhere.status, .ok, elsewhere.body.text)
            func activity(app: String?, days: Int) async throws -> TestResponse {
                try await client.send(
                    .post, "/internal/activity/users", headers: TestEnvironment.fields(app: app), json: ActivityQuery(days: days))
            }
            let mine = try JSONCoding.decoder.decode(UserActivity.self, from: try await activity(app: harness.appID, days: 7).body)
            XCTAssertEqual(mine.total, 2)
            XCTAssertEqual(mine.newUsers.count, 7)
            XCTAssertEqual(mine.newUsers.last?.count, 2, "both joined today")
            XCTAssertEqual(mine.newUsers.dropLast().map(\.count), [0, 0, 0, 0, 0, 0])
            XCTAssertEqual(mine.activeUsers.last?.count, 2, "a join opens a session")
            XCTAssertEqual(mine.newUsers.last?.day, String(GlintDate.string(from: Date()).prefix(10)))
            let every = try JSONCoding.decoder.decode(UserActivity.self, from: try await activity(app: nil, days: 30).body)
            XCTAssertEqual(every.total, 3)
            XCTAssertEqual(every.newUsers.count, 30)
            let bad = try await activity(app: harness.appID, days: 0)
            XCTAssertEqual(bad.status, .badRequest)
        }
    }
}
