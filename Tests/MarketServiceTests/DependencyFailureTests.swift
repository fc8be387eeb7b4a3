import Contracts
import GRDB
import HummingbirdTesting
import ServiceClients
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// market-svc with one of the services it calls down (their `failing` clients).
final class DependencyFailureTests: XCTestCase {
    typealias Harness = PostContractTests.Harness

    func testFeedsAnswer503WhileAuthIsDown() async throws {
        let harness = try await Harness.make(users: .failing)
        try await harness.app.contractTest { client in
            let feed = try await client.execute(uri: "/v1/posts", method: .get, headers: try await harness.headers(PostContractTests.alice))
            XCTAssertEqual(feed.status.code, 503)
            XCTAssertEqual(try JSON.object(feed.body) as? [String: String], ["code": "unavailable", "message": "auth-svc unavailable"])
        }
    }

    func testALocatedPostIsKeptForGeoWhileGeoIsDown() async throws {
        let harness = try await Harness.make(geo: .failing(.geo))
        try await harness.app.contractTest { client in
            let created = try await client.execute(
                uri: "/v1/posts", method: .post, headers: try await harness.headers(PostContractTests.alice, [("content-type", "application/json")]),
                body: JSONCoding.encode(PostCreateRequest(category: "walk", title: "here", content: "", longitude: 127.0276, latitude: 37.4979))
            )
            XCTAssertEqual(created.status, .ok, "the post does not wait for geo-svc")
            let id = try JSON.string(try JSON.object(created.body), "post_id")
            let retried = await HTTPProbe.eventually(within: .seconds(15)) { () -> Int? in
                let attempts = try? await harness.engine.values(Int.self, "SELECT attempts FROM outbox WHERE key = '\(id)' AND delivered_at IS NULL")
                guard let attempts = attempts?.first, attempts >= 1 else { return nil }
                return attempts
            }
            XCTAssertNotNil(retried, "the location event stays in the outbox, tried and undelivered")
        }
    }
}
