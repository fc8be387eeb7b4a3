import Contracts
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// Located posts reach geo-svc before the request that placed, moved, hid or deleted them
/// answers (the map the user opens next shows it), and through the outbox too, which retries
/// what geo-svc refused; each event carries the post's version, so geo-svc keeps the newest.
final class LocationOutboxTests: XCTestCase {
    typealias Harness = PostContractTests.Harness

    private static func send(
        _ client: some TestClientProtocol, _ harness: Harness, _ method: HTTPRequest.Method, _ uri: String, _ body: some Encodable
    ) async throws -> [String: Any] {
        let response = try await client.execute(
            uri: uri, method: method, headers: try await harness.headers(PostContractTests.alice, [("content-type", "application/json")]),
            body: JSONCoding.encode(body))
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try JSON.object(response.body)
    }

    func testLocationEventsAheadOfTheOutboxAndRetried() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            @Sendable func received() -> [PostLocationEvent] { harness.geo.received.withLock { $0 } }
            // What geo-svc keeps: the newest version it was told of (the outbox's copies of older
            // events may come at any time).
            func newest() throws -> PostLocationEvent { try XCTUnwrap(received().max { ($0.version ?? 0) < ($1.version ?? 0) }) }
            _ = try await Self.send(client, harness, .post, "/v1/posts", PostCreateRequest(category: "c", title: "nowhere", content: ""))
            let post = try await Self.send(
                client, harness, .post, "/v1/posts",
                PostCreateRequest(category: "walk", title: "here", content: "", longitude: 127.0276, latitude: 37.4979))
            let id = try JSON.string(post, "post_id")
            let created = try newest()
            XCTAssertEqual(created.postID, id, "posts without a location send nothing")
            XCTAssertEqual(created.longitude, 127.0276)
            XCTAssertFalse(created.removed)

            // geo-svc refuses the next delivery (the move's, ahead): the outbox retries it.
            harness.geo.refusals.set(1)
            var move = PostUpdateRequest()
            (move.longitude, move.latitude) = (126.978, 37.5665)
            _ = try await Self.send(client, harness, .put, "/v1/posts/\(id)", move)
            _ = try await Self.send(client, harness, .put, "/v1/posts/\(id)", PostUpdateRequest(isPublic: false))
            let hidden = try newest()
            XCTAssertTrue(hidden.removed, "a private post leaves the map before the answer")
            let moved = await HTTPProbe.eventually(within: .seconds(15)) { () -> PostLocationEvent? in
                received().first { $0.latitude == 37.5665 }
            }
            XCTAssertNotNil(moved, "the refused move arrives from the outbox")
            XCTAssertLessThan(try XCTUnwrap(moved?.version), try XCTUnwrap(hidden.version), "older than the hiding, which geo-svc keeps")
            _ = try await Self.send(client, harness, .put, "/v1/posts/\(id)", PostUpdateRequest(isPublic: true))
            let shown = try newest()
            XCTAssertEqual(shown.removed, false)
            let deleted = try await client.execute(
                uri: "/v1/posts/\(id)", method: .delete, headers: try await harness.headers(PostContractTests.alice))
            XCTAssertEqual(deleted.status, .ok)
            let gone = try newest()
            XCTAssertEqual(gone.removed, true)
            XCTAssertGreaterThan(try XCTUnwrap(gone.version), try XCTUnwrap(shown.version))

            // The outbox delivers each again, geo-svc's refusal retried (geo-svc applies a repeat
            // as nothing): each of the five from the outbox, and ahead all but the one refused
            // (whichever delivery took the refusal).
            let all = [created, try XCTUnwrap(moved), hidden, shown, gone]
            let settled = await HTTPProbe.eventually(within: .seconds(15)) { () -> [PostLocationEvent]? in
                let events = received()
                return events.count >= 9 && all.allSatisfy(events.contains) ? events : nil
            }
            let events = try XCTUnwrap(settled, "\(received())")
            XCTAssertTrue(events.allSatisfy(all.contains), "only these events")
            XCTAssertLessThanOrEqual(events.count, 10, "nothing more")
        }
    }
}
