import Contracts
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// Located posts reach geo-svc through the outbox: created, moved, hidden, deleted — in order,
/// retried until geo-svc takes them.
final class LocationOutboxTests: XCTestCase {
    typealias Harness = PostContractTests.Harness

    private static func send(_ client: some TestClientProtocol, _ harness: Harness, _ method: HTTPRequest.Method, _ uri: String, _ body: some Encodable) async throws -> [String: Any] {
        let response = try await client.execute(uri: uri, method: method, headers: try await harness.headers(PostContractTests.alice, [("content-type", "application/json")]),
                                                body: JSONCoding.encode(body))
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try JSON.object(response.body)
    }

    func testLocationEventsInOrderAndRetried() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            _ = try await Self.send(client, harness, .post, "/v1/posts", PostCreateRequest(category: "c", title: "nowhere", content: ""))
            let post = try await Self.send(client, harness, .post, "/v1/posts",
                                           PostCreateRequest(category: "walk", title: "here", content: "", longitude: 127.0276, latitude: 37.4979))
            let id = try JSON.string(post, "post_id")
            let created = try await harness.geo.event(0)
            XCTAssertEqual(created.postID, id, "posts without a location send nothing")
            XCTAssertEqual(created.longitude, 127.0276)
            XCTAssertFalse(created.removed)

            harness.geo.refusals.set(1)
            var move = PostUpdateRequest()
            (move.longitude, move.latitude) = (126.978, 37.5665)
            _ = try await Self.send(client, harness, .put, "/v1/posts/\(id)", move)
            _ = try await Self.send(client, harness, .put, "/v1/posts/\(id)", PostUpdateRequest(isPublic: false))
            let moved = try await harness.geo.event(1)
            XCTAssertEqual(moved.latitude, 37.5665, "the refused move is retried, and the later event waits for it")
            let hidden = try await harness.geo.event(2)
            XCTAssertTrue(hidden.removed, "a private post leaves the map")
            _ = try await Self.send(client, harness, .put, "/v1/posts/\(id)", PostUpdateRequest(isPublic: true))
            let shown = try await harness.geo.event(3)
            XCTAssertEqual(shown.removed, false)
            let deleted = try await client.execute(uri: "/v1/posts/\(id)", method: .delete, headers: try await harness.headers(PostContractTests.alice))
            XCTAssertEqual(deleted.status, .ok)
            let gone = try await harness.geo.event(4)
            XCTAssertEqual(gone.removed, true)
            XCTAssertEqual(harness.geo.received.withLock { $0.count }, 5, "nothing more")
        }
    }
}
