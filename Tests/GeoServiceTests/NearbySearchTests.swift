import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import GeoService

/// The R*Tree prefilter plus exact distances finds exactly what a full scan finds.
final class NearbySearchTests: XCTestCase {
    /// A reproducible generator (SplitMix64): the same 10,000 points on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func event(
        _ index: Int, app: String = GeoHarness.appID, category: String = "c", longitude: Double?, latitude: Double?, removed: Bool = false
    ) -> PostLocationEvent {
        PostLocationEvent(
            postID: String(format: "%024x", index), appID: app, category: category, longitude: longitude, latitude: latitude,
            createdAt: 1_700_000_000_000 + Int64(index), removed: removed)
    }

    func testRadiusAnswersEqualABruteForceScan() async throws {
        let harness = try await GeoHarness.make()
        var random = Seeded(state: 42)
        var points: [(id: String, coordinate: Coordinate)] = []
        for index in 0..<10_000 {
            // 8,000 across South Korea's box, 2,000 packed into central Seoul.
            let (longitude, latitude) =
                index < 8_000
                ? (Double.random(in: 124.6...131.9, using: &random), Double.random(in: 33.1...38.6, using: &random))
                : (Double.random(in: 126.95...127.05, using: &random), Double.random(in: 37.53...37.59, using: &random))
            let event = Self.event(index, longitude: longitude, latitude: latitude)
            try await harness.nearby.apply(event)
            points.append((event.postID, try Coordinate(latitude: latitude, longitude: longitude)))
        }
        var centres = [
            try Coordinate(latitude: 37.5665, longitude: 126.9780), try Coordinate(latitude: 35.1796, longitude: 129.0756),
            points[4_321].coordinate, points[9_876].coordinate,
        ]
        for _ in 0..<4 {
            centres.append(try Coordinate(latitude: .random(in: 33.1...38.6, using: &random), longitude: .random(in: 124.6...131.9, using: &random)))
        }
        var compared = 0
        for centre in centres {
            for radius in [0.5, 1, 10, 100, 500, 1_000, 5_000, 20_000] {
                let found = try await harness.nearby.search(NearbyQuery(center: centre, radius: radius, appID: GeoHarness.appID, limit: 100_000))
                let expected = points.map { ($0.id, GreatCircle.distance(centre, $0.coordinate)) }.filter { $0.1 <= radius }
                    .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
                XCTAssertEqual(found.map(\.postID), expected.map(\.0), "centre \(centre), radius \(radius)")
                compared += expected.count
            }
        }
        XCTAssertGreaterThan(compared, 2_000, "the centres and radii cover many points")
        let exact = try await harness.nearby.search(NearbyQuery(center: points[4_321].coordinate, radius: 0.5, appID: GeoHarness.appID))
        XCTAssertEqual(exact.first?.postID, points[4_321].id, "a tiny radius on a point finds it")
    }

    func testDistancesAreGreatCircleMetres() throws {
        let north = GreatCircle.distance(try Coordinate(latitude: 37, longitude: 127), try Coordinate(latitude: 38, longitude: 127))
        XCTAssertEqual(north, 6_371_008.8 * .pi / 180, accuracy: 0.001, "one degree of a meridian")
        let seoulBusan = GreatCircle.distance(
            try Coordinate(latitude: 37.5665, longitude: 126.9780), try Coordinate(latitude: 35.1796, longitude: 129.0756))
        XCTAssertEqual(seoulBusan, 325_000, accuracy: 1_500, "Seoul City Hall to Busan City Hall, about 325 km")
    }

    func testTheAntimeridianIsCrossed() async throws {
        let harness = try await GeoHarness.make()
        try await harness.nearby.apply(Self.event(1, longitude: -179.99, latitude: 10))
        try await harness.nearby.apply(Self.event(2, longitude: 179.99, latitude: 10))
        let found = try await harness.nearby.search(
            NearbyQuery(center: try Coordinate(latitude: 10, longitude: 179.995), radius: 5_000, appID: GeoHarness.appID))
        XCTAssertEqual(Set(found.map(\.postID)), [Self.event(1, longitude: 0, latitude: 0).postID, Self.event(2, longitude: 0, latitude: 0).postID])
        XCTAssertEqual(GreatCircle.boxes(around: try Coordinate(latitude: 10, longitude: 179.995), radius: 5_000).count, 2)
    }
}
