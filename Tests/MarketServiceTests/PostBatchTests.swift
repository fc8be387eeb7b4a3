import Contracts
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// `POST /internal/posts/batch`: geo-svc's one call to render what a radius search found.
final class PostBatchTests: XCTestCase {
    typealias Harness = PostContractTests.Harness

    private static func create(
        _ client: some TestClientProtocol, _ harness: Harness, _ user: String, _ request: PostCreateRequest
    ) async throws -> String {
        let response = try await client.execute(
            uri: "/v1/posts", method: .post, headers: try await harness.headers(user, [("content-type", "application/json")]),
            body: JSONCoding.encode(request))
        return try JSON.string(try JSON.object(response.body), "post_id")
    }

    private static func batch(_ client: some TestClientProtocol, _ harness: Harness, _ user: String, _ ids: [String]) async throws -> TestResponse {
        try await client.execute(
            uri: "/internal/posts/batch", method: .post, headers: try await harness.headers(user, [("content-type", "application/json")]),
            body: JSONCoding.encode(PostBatchRequest(postIDs: ids)))
    }

    func testRendersWhatTheCallerMaySeeInTheAskedOrder() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let (alice, bob) = (PostContractTests.alice, PostContractTests.bob)
            let first = try await Self.create(
                client, harness, alice, PostCreateRequest(category: "c", title: "first", content: "", longitude: 127, latitude: 37.5))
            let second = try await Self.create(
                client, harness, bob, PostCreateRequest(category: "c", title: "second", content: "", longitude: 127, latitude: 37.5))
            let hidden = try await Self.create(
                client, harness, bob, PostCreateRequest(category: "c", title: "bob only", content: "", isPublic: false))
            let unknown = "6740369b3a36e82f532ec000"

            let response = try await Self.batch(client, harness, alice, [second, hidden, unknown, first, second, "junk"])
            XCTAssertEqual(response.status, .ok, response.body.text)
            let data = try XCTUnwrap(try JSON.object(response.body)["data"] as? [[String: Any]])
            XCTAssertEqual(
                try data.map { try JSON.string($0, "post_id") }, [second, first], "asked order; private, unknown, repeated and malformed left out")
            JSON.assertKeys(data[0], PostContractTests.postKeys)

            let own = try await Self.batch(client, harness, bob, [hidden])
            XCTAssertEqual((try JSON.object(own.body)["data"] as? [[String: Any]])?.count, 1, "the owner sees a private post")

            harness.blocks.byUser.withLock { $0[alice] = [bob] }
            let blocked = try await Self.batch(client, harness, alice, [second, first])
            XCTAssertEqual(try (try JSON.object(blocked.body)["data"] as? [[String: Any]] ?? []).map { try JSON.string($0, "post_id") }, [first])

            let tooMany = try await Self.batch(client, harness, alice, Array(repeating: first, count: PostBatchRequest.maxCount + 1))
            XCTAssertEqual(tooMany.status, .badRequest)
            let anonymous = try await client.execute(
                uri: "/internal/posts/batch", method: .post, headers: TestEnvironment.fields(app: PostContractTests.appID),
                body: JSONCoding.encode(PostBatchRequest(postIDs: [first])))
            XCTAssertEqual(anonymous.status, .unauthorized, "the caller's token is required")
        }
    }
}
