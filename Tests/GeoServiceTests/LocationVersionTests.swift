import Contracts
import ServiceKit
import TestSupport
import XCTest

@testable import GeoService

/// market-svc delivers each location event ahead of its outbox and again from it, so events of
/// one post can arrive out of order: the newest change wins, a removal included.
final class LocationVersionTests: XCTestCase {
    private static let seoul = (longitude: 126.978, latitude: 37.5665), busan = (longitude: 129.0756, latitude: 35.1796)

    private static func event(_ place: (longitude: Double, latitude: Double)?, version: Int64?) -> PostLocationEvent {
        var event = NearbySearchTests.event(1, longitude: place?.longitude, latitude: place?.latitude, removed: place == nil)
        event.version = version
        return event
    }

    private func found(_ harness: GeoHarness, near place: (longitude: Double, latitude: Double)) async throws -> Bool {
        let answer = try await harness.nearby.search(
            NearbyQuery(
                center: try Coordinate(latitude: place.latitude, longitude: place.longitude), radius: 1_000, appID: GeoHarness.appID
            ))
        return answer.contains { $0.postID == Self.event(nil, version: nil).postID }
    }

    func testTheNewestChangeOfAPostWins() async throws {
        let harness = try await GeoHarness.make()
        try await harness.nearby.apply(Self.event(Self.seoul, version: 10))
        try await harness.nearby.apply(Self.event(Self.busan, version: 20))
        try await harness.nearby.apply(Self.event(Self.seoul, version: 10))
        var inSeoul = try await found(harness, near: Self.seoul), inBusan = try await found(harness, near: Self.busan)
        XCTAssertEqual([inSeoul, inBusan], [false, true], "the older placing, delivered again, changes nothing")

        try await harness.nearby.apply(Self.event(nil, version: 30))
        try await harness.nearby.apply(Self.event(Self.busan, version: 20))
        inBusan = try await found(harness, near: Self.busan)
        XCTAssertFalse(inBusan, "a removal refuses the older placing delivered after it")

        try await harness.nearby.apply(Self.event(Self.seoul, version: 40))
        inSeoul = try await found(harness, near: Self.seoul)
        XCTAssertTrue(inSeoul, "a newer placing brings it back (public again)")

        try await harness.nearby.apply(Self.event(Self.busan, version: nil))
        (inSeoul, inBusan) = (try await found(harness, near: Self.seoul), try await found(harness, near: Self.busan))
        XCTAssertEqual([inSeoul, inBusan], [false, true], "an event queued before versions is applied as it comes")
    }

    func testARemovalBeforeAnyPlacingIsRemembered() async throws {
        let harness = try await GeoHarness.make()
        try await harness.nearby.apply(Self.event(nil, version: 50))
        try await harness.nearby.apply(Self.event(Self.seoul, version: 49))
        let inSeoul = try await found(harness, near: Self.seoul)
        XCTAssertFalse(inSeoul, "the creation delivered after the deletion does not place the post")
    }
}
