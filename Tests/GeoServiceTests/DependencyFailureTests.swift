import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import GeoService

/// geo-svc with market-svc down (its `failing` client).
final class DependencyFailureTests: XCTestCase {
    func testARadiusSearchThatFindsPostsAnswers503WhileMarketIsDown() async throws {
        let harness = try await GeoHarness.make(marketClient: .failing)
        try await harness.nearby.apply(
            PostLocationEvent(
                postID: "6740369b3a36e82f532ec7a1", appID: GeoHarness.appID, category: "walk", longitude: 126.978, latitude: 37.5665, createdAt: 1,
                removed: false
            ))
        try await harness.app.contractTest { client in
            let empty = try await client.execute(
                uri: "/v1/posts/geolocation?longitude=127.5&latitude=36.5&maxDistance=100", method: .get,
                headers: try await harness.headers())
            XCTAssertEqual(empty.status, .ok, "nothing found, nothing to ask market-svc")
            let found = try await client.execute(
                uri: "/v1/posts/geolocation?longitude=126.978&latitude=37.5665&maxDistance=100", method: .get,
                headers: try await harness.headers())
            XCTAssertEqual(found.status.code, 503)
            XCTAssertEqual(try JSON.object(found.body) as? [String: String], ["code": "unavailable", "message": "market-svc unavailable"])
        }
    }
}
