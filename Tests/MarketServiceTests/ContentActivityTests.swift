import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// The overview's content (issue 36): an app's posts and book stories per day, on either engine
/// (`DailyActivity`'s one rule), every app's when the call names none.
final class ContentActivityTests: XCTestCase {
    typealias Harness = PostContractTests.Harness

    func testPostsPerDay() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            for title in ["하나", "둘"] {
                let created = try await client.execute(
                    uri: "/v1/posts", method: .post,
                    headers: try await harness.headers(PostContractTests.alice, [("content-type", "application/json")]),
                    body: JSONCoding.encode(PostCreateRequest(category: "walk", title: title, price: 0, content: "c", longitude: 127, latitude: 37)))
                XCTAssertEqual(created.status, .ok, created.body.text)
            }
            func activity(app: String?) async throws -> ContentActivity {
                let answer = try await client.execute(
                    uri: "/internal/activity/content", method: .post,
                    headers: TestEnvironment.fields(app: app, extra: [("content-type", "application/json")]),
                    body: JSONCoding.encode(ActivityQuery(days: 7)))
                XCTAssertEqual(answer.status, .ok, answer.body.text)
                return try JSONCoding.decoder.decode(ContentActivity.self, from: answer.body)
            }
            let mine = try await activity(app: "app-1")
            XCTAssertEqual(mine.posts.map(\.count), [0, 0, 0, 0, 0, 0, 2])
            XCTAssertEqual(mine.stories.map(\.count), [0, 0, 0, 0, 0, 0, 0])
            let other = try await activity(app: "another-app")
            XCTAssertEqual(other.posts.last?.count, 0)
            let every = try await activity(app: nil)
            XCTAssertEqual(every.posts.last?.count, 2)
        }
    }
}
