import Contracts
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import GeoService

/// `GET /v1/posts/geolocation` and `POST /internal/post-locations` (API.md §4).
final class NearbyContractTests: XCTestCase {
    /// Seoul City Hall, and points due north of it at known distances.
    static let center = (longitude: 126.9780, latitude: 37.5665)
    static func north(_ metres: Double) -> Double { center.latitude + metres / (6_371_008.8 * .pi / 180) }

    private static func send(_ client: some TestClientProtocol, _ event: PostLocationEvent) async throws {
        let response = try await client.execute(
            uri: "/internal/post-locations", method: .post,
            headers: TestEnvironment.fields(app: event.appID, extra: [("content-type", "application/json")]),
            body: JSONCoding.encode(event))
        XCTAssertEqual(response.status, .ok, response.body.text)
    }

    private static func nearby(
        _ client: some TestClientProtocol, _ harness: GeoHarness, _ query: String, user: String = GeoHarness.alice,
        app: String = GeoHarness.appID
    ) async throws -> TestResponse {
        try await client.execute(uri: "/v1/posts/geolocation?" + query, method: .get, headers: try await harness.headers(user, app: app))
    }

    private static func ids(_ response: TestResponse) throws -> [String] {
        XCTAssertEqual(response.status, .ok, response.body.text)
        let data = try XCTUnwrap(try JSON.object(response.body)["data"] as? [[String: Any]])
        return try data.map { try JSON.string($0, "post_id") }
    }

    private static func found(
        _ client: some TestClientProtocol, _ harness: GeoHarness, _ query: String, app: String = GeoHarness.appID
    ) async throws -> [String] {
        try ids(try await nearby(client, harness, query, app: app))
    }

    private static func id(_ index: Int) -> String { String(format: "%024x", index) }

    private static func seed(_ client: some TestClientProtocol) async throws {
        // 1: 100 m, 2: 300 m (category "walk"), 3: 700 m, 4: 3 km, 5: 100 m in another app.
        for (index, metres, category, app) in [
            (1, 100.0, "c", GeoHarness.appID), (2, 300, "walk", GeoHarness.appID), (3, 700, "c", GeoHarness.appID),
            (4, 3_000, "c", GeoHarness.appID), (5, 100, "c", GeoHarness.otherApp),
        ] {
            try await send(client, NearbySearchTests.event(index, app: app, category: category, longitude: center.longitude, latitude: north(metres)))
        }
    }

    func testAnswersPostsWithDistanceNearestFirst() async throws {
        let harness = try await GeoHarness.make()
        try await harness.app.contractTest { client in
            try await Self.seed(client)
            let response = try await Self.nearby(client, harness, "longitude=126.9780&latitude=37.5665&maxDistance=500.0")
            XCTAssertEqual(try Self.ids(response), [Self.id(1), Self.id(2)])
            let body = try JSON.object(response.body)
            JSON.assertKeys(body, ["data"])
            let first = try XCTUnwrap((body["data"] as? [[String: Any]])?.first)
            JSON.assertKeys(
                first,
                Set(
                    [
                        "post_id", "product_id", "category", "title", "price", "content", "content1", "content2", "content3", "content4",
                        "content5", "createdAt", "updatedAt", "creator", "files", "likes", "likes2", "buyers", "hashTags", "comments",
                        "geolocation", "distance", "is_public",
                    ].filter { $0 != "product_id" || first["product_id"] != nil }))
            XCTAssertEqual(try XCTUnwrap(first["distance"] as? Double), 100, accuracy: 0.1)
            let call = try XCTUnwrap(harness.market.calls.withLock { $0.last })
            XCTAssertEqual(call.ids, [Self.id(1), Self.id(2)], "one batch call, in answer order")
            XCTAssertEqual(call.appID, GeoHarness.appID)
            XCTAssertFalse(call.authorization.isEmpty, "the caller's token goes to market-svc")
        }
    }

    func testQueryRules() async throws {
        let harness = try await GeoHarness.make()
        try await harness.app.contractTest { client in
            try await Self.seed(client)
            var got: [String]
            let base = "longitude=126.9780&latitude=37.5665"
            let defaults = [Self.id(1), Self.id(2)]
            got = try await Self.found(client, harness, base)
            XCTAssertEqual(got, defaults, "missing maxDistance = 500 m")
            got = try await Self.found(client, harness, base + "&maxDistance=0")
            XCTAssertEqual(got, defaults, "\"0\" = 500 m")
            got = try await Self.found(client, harness, base + "&maxDistance=1000")
            XCTAssertEqual(got, [Self.id(1), Self.id(2), Self.id(3)])
            got = try await Self.found(client, harness, base + "&maxDistance=50000.0")
            XCTAssertEqual(got.count, 4, "capped at 20 km, not refused")
            got = try await Self.found(client, harness, base + "&maxDistance=5000&category=walk&category=x")
            XCTAssertEqual(got, [Self.id(2)])
            got = try await Self.found(client, harness, base + "&maxDistance=5000&order_by=createdAt")
            XCTAssertEqual(got, [Self.id(4), Self.id(3), Self.id(2), Self.id(1)], "newest first")
            got = try await Self.found(client, harness, base + "&maxDistance=5000&order_by=createdAt&sort_by=asc")
            XCTAssertEqual(got, [Self.id(1), Self.id(2), Self.id(3), Self.id(4)])
            got = try await Self.found(client, harness, base + "&maxDistance=5000&sort_by=desc")
            XCTAssertEqual(got, [Self.id(4), Self.id(3), Self.id(2), Self.id(1)], "farthest first")
            got = try await Self.found(client, harness, base + "&maxDistance=5000&limit=2")
            XCTAssertEqual(got, [Self.id(1), Self.id(2)])
            got = try await Self.found(client, harness, base, app: GeoHarness.otherApp)
            XCTAssertEqual(got, [Self.id(5)], "apps are apart")
            for bad in [
                "longitude=abc&latitude=37.5", "latitude=37.5", "longitude=127&latitude=-91", base + "&maxDistance=-1",
                base + "&maxDistance=far", base + "&order_by=price", base + "&sort_by=up", base + "&limit=x", base + "&limit=501",
            ] {
                let response = try await Self.nearby(client, harness, bad)
                XCTAssertEqual(response.status, .badRequest, bad)
            }
        }
    }

    func testEventsAreIdempotentAndApplyMovesAndRemovals() async throws {
        let harness = try await GeoHarness.make()
        try await harness.app.contractTest { client in
            try await Self.seed(client)
            var got: [String]
            let base = "longitude=126.9780&latitude=37.5665"
            let moved = NearbySearchTests.event(3, longitude: Self.center.longitude, latitude: Self.north(200))
            try await Self.send(client, moved)
            try await Self.send(client, moved)
            got = try await Self.found(client, harness, base)
            XCTAssertEqual(got, [Self.id(1), Self.id(3), Self.id(2)], "moved once, not duplicated")
            let removed = NearbySearchTests.event(1, longitude: nil, latitude: nil, removed: true)
            try await Self.send(client, removed)
            try await Self.send(client, removed)
            got = try await Self.found(client, harness, base)
            XCTAssertEqual(got, [Self.id(3), Self.id(2)])
            harness.market.hidden.withLock { $0 = [Self.id(3)] }
            got = try await Self.found(client, harness, base)
            XCTAssertEqual(got, [Self.id(2)], "what market-svc hides stays hidden")

            let calls = harness.market.calls.withLock { $0.count }
            got = try await Self.found(client, harness, "longitude=129.0756&latitude=35.1796")
            XCTAssertEqual(got, [])
            XCTAssertEqual(harness.market.calls.withLock { $0.count }, calls, "nothing found, nothing asked")

            for bad in [
                NearbySearchTests.event(9, longitude: 200, latitude: 37),
                PostLocationEvent(
                    postID: "nope", appID: GeoHarness.appID, category: "c",
                    longitude: 127, latitude: 37, createdAt: 0, removed: false),
            ] {
                let response = try await client.execute(
                    uri: "/internal/post-locations", method: .post,
                    headers: TestEnvironment.fields(app: GeoHarness.appID, extra: [("content-type", "application/json")]),
                    body: JSONCoding.encode(bad))
                XCTAssertEqual(response.status, .badRequest)
            }
            let outsider = try await client.execute(
                uri: "/internal/post-locations", method: .post, headers: [.contentType: "application/json"],
                body: JSONCoding.encode(moved))
            XCTAssertNotEqual(outsider.status, .ok, "internal routes need the internal secret")
        }
    }
}
