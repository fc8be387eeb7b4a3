import Contracts
import Hummingbird
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import GeoService

/// Walks: what they measure, and `/v1/walks` (API.md §4).
final class WalkTests: XCTestCase {
    static let start: Int64 = 1_732_000_000_000
    /// Metres per degree of latitude.
    static let degree = 6_371_008.8 * .pi / 180

    /// Fixes walking due north from Seoul City Hall: `step` metres every `seconds`.
    static func northward(_ count: Int, step: Double = 11.12, seconds: Double = 8) throws -> [TrackPoint] {
        try (0..<count).map { index in
            TrackPoint(
                coordinate: try Coordinate(latitude: 37.5665 + Double(index) * step / degree, longitude: 126.9780),
                time: start + Int64(Double(index) * seconds * 1000))
        }
    }

    func testDistanceDurationAndCalories() throws {
        let metrics = WalkMetrics(try Self.northward(11))
        XCTAssertEqual(metrics.distance, 111.2, accuracy: 0.01)
        // 11.12 m per 8 s is 5.0 km/h: 4.5 METs × 70 kg × 80 s.
        XCTAssertEqual(metrics.calories, 4.5 * 70 * 80 / 3600, accuracy: 1e-9)
        XCTAssertEqual(WalkMetrics.mets(kilometresPerHour: 3.2), 2.8)
        XCTAssertEqual(WalkMetrics.mets(kilometresPerHour: 4.8), 3.9)
        XCTAssertEqual(WalkMetrics.mets(kilometresPerHour: 6.4), 4.5)
        XCTAssertEqual(WalkMetrics.mets(kilometresPerHour: 6.5), 6.0)
    }

    func testGPSJumpsAreIgnored() throws {
        var points = try Self.northward(11)
        // Fix 5 jumps 1 km east for one reading: 1 km in 8 s is 450 km/h.
        points[5].coordinate = try Coordinate(
            latitude: points[5].coordinate.latitude, longitude: 126.9780 + 1_000 / (Self.degree * cos(37.5665 * .pi / 180)))
        let metrics = WalkMetrics(points)
        XCTAssertEqual(metrics.distance, 111.2 - 2 * 11.12, accuracy: 0.01, "both segments of the jump are left out")
        XCTAssertEqual(metrics.kept.count, 10, "the outlier is not drawn")
        XCTAssertFalse(metrics.kept.contains(points[5]))
        let simultaneous = WalkMetrics([points[0], TrackPoint(coordinate: points[1].coordinate, time: points[0].time)])
        XCTAssertEqual(simultaneous.distance, 0, "a move in no time is a jump")
    }

    func testPathIsSimplifiedWithinFiveMetres() throws {
        let straight = try Self.northward(50)
        XCTAssertEqual(PathSimplifier.simplify(straight), [straight[0], straight[49]], "a straight line keeps its ends")
        var corner = try Self.northward(20)
        for index in 10..<20 {
            corner[index].coordinate = try Coordinate(
                latitude: corner[9].coordinate.latitude,
                longitude: 126.9780 + Double(index - 9) * 11.12 / (Self.degree * cos(37.5665 * .pi / 180)))
        }
        XCTAssertEqual(PathSimplifier.simplify(corner), [corner[0], corner[9], corner[19]], "a right angle keeps its corner")
        var wobble = straight
        wobble[25].coordinate.longitude += 3 / (Self.degree * cos(37.5665 * .pi / 180))
        XCTAssertEqual(PathSimplifier.simplify(wobble).count, 2, "3 m of GPS wobble is smoothed away")
    }

    private static func input(_ points: [TrackPoint]) -> [WalkPointInput] {
        points.map { WalkPointInput(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude, timestamp: .number(Double($0.time))) }
    }

    private static func post(
        _ client: some TestClientProtocol, _ harness: GeoHarness, _ request: some Encodable, user: String = GeoHarness.alice
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/walks", method: .post, headers: try await harness.headers(user, [("content-type", "application/json")]),
            body: JSONCoding.encode(request))
    }

    func testCreateAnswersTheWalkShape() async throws {
        let harness = try await GeoHarness.make(geocoder: try GeoHarness.boundaries.get())
        try await harness.app.contractTest { client in
            let points = try Self.northward(11)
            let response = try await Self.post(
                client, harness, WalkRequest(points: Self.input(points), title: "morning", postID: "6740369b3a36e82f532ec799"))
            XCTAssertEqual(response.status, .ok, response.body.text)
            let walk = try JSON.object(response.body)
            JSON.assertKeys(
                walk,
                [
                    "walk_id", "title", "post_id", "distance_m", "duration_s", "calories", "started_at", "ended_at", "bbox", "path",
                    "start_address", "created_at",
                ])
            XCTAssertEqual(walk["distance_m"] as? Double, 111.2)
            XCTAssertEqual(walk["duration_s"] as? Int, 80)
            XCTAssertEqual(walk["calories"] as? Double, 7)
            XCTAssertEqual(walk["started_at"] as? String, GlintDate.string(fromMilliseconds: Self.start))
            XCTAssertEqual(walk["ended_at"] as? String, GlintDate.string(fromMilliseconds: Self.start + 80_000))
            XCTAssertEqual(walk["start_address"] as? String, "서울특별시 중구 태평로1가")
            XCTAssertEqual(walk["title"] as? String, "morning")
            XCTAssertEqual(walk["post_id"] as? String, "6740369b3a36e82f532ec799")
            let bbox = try XCTUnwrap(walk["bbox"] as? [String: Any])
            JSON.assertKeys(bbox, ["min_latitude", "min_longitude", "max_latitude", "max_longitude"])
            XCTAssertEqual(bbox["min_latitude"] as? Double, 37.5665)
            XCTAssertEqual(try XCTUnwrap(bbox["max_latitude"] as? Double), points[10].coordinate.latitude, accuracy: 1e-12)
            let path = try XCTUnwrap(walk["path"] as? [[String: Any]])
            XCTAssertEqual(path.count, 2, "a straight walk is drawn with its two ends")
            JSON.assertKeys(path[0], ["latitude", "longitude", "timestamp"])
            XCTAssertEqual(path[1]["timestamp"] as? String, GlintDate.string(fromMilliseconds: Self.start + 80_000))

            let id = try JSON.string(walk, "walk_id")
            let again = try await client.execute(uri: "/v1/walks/\(id)", method: .get, headers: try await harness.headers())
            XCTAssertEqual(again.status, .ok)
            XCTAssertEqual(
                try JSONCoding.decoder.decode(WalkAnswer.self, from: again.body), try JSONCoding.decoder.decode(WalkAnswer.self, from: response.body))
            let other = try await client.execute(uri: "/v1/walks/\(id)", method: .get, headers: try await harness.headers(GeoHarness.bob))
            XCTAssertEqual(other.status.code, 445, "owner only")
            let missing = try await client.execute(uri: "/v1/walks/6740369b3a36e82f532ec000", method: .get, headers: try await harness.headers())
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    func testTimestampsInSecondsMillisecondsOrDates() async throws {
        let harness = try await GeoHarness.make()
        try await harness.app.contractTest { client in
            let points = try Self.northward(3)
            var answers: [WalkAnswer] = []
            for form in 0..<4 {
                let inputs = points.map { point in
                    let timestamp: WalkPointInput.Timestamp =
                        switch form {
                        case 0: .number(Double(point.time))
                        case 1: .number(Double(point.time) / 1000)
                        case 2: .text(GlintDate.string(fromMilliseconds: point.time))
                        default: .text(GlintDate.string(fromMilliseconds: point.time).replacingOccurrences(of: ".000Z", with: "+00:00"))
                        }
                    return WalkPointInput(latitude: point.coordinate.latitude, longitude: point.coordinate.longitude, timestamp: timestamp)
                }
                let response = try await Self.post(client, harness, WalkRequest(points: inputs))
                XCTAssertEqual(response.status, .ok, response.body.text)
                answers.append(try JSONCoding.decoder.decode(WalkAnswer.self, from: response.body))
            }
            XCTAssertEqual(Set(answers.map(\.startedAt)), [GlintDate.string(fromMilliseconds: Self.start)])
            XCTAssertEqual(Set(answers.map(\.durationS)), [16])
            XCTAssertEqual(answers[0].startAddress, "", "no boundary data, no address")
            XCTAssertEqual(answers[0].title, "")
            XCTAssertEqual(answers[0].postID, "")
        }
    }

    func testInvalidWalksAreBadRequests() async throws {
        let harness = try await GeoHarness.make()
        try await harness.app.contractTest { client in
            let good = Self.input(try Self.northward(3))
            var outOfOrder = good
            outOfOrder.swapAt(0, 2)
            var offMap = good
            offMap[1].latitude = 95
            var future = good
            future[2].timestamp = .number(Double(GlintDate.nowMilliseconds() + 7 * 86_400_000))
            var garbled = good
            garbled[1].timestamp = .text("yesterday")
            let cases: [(String, WalkRequest)] = [
                ("one point", WalkRequest(points: Array(good.prefix(1)))), ("out of order", WalkRequest(points: outOfOrder)),
                ("latitude 95", WalkRequest(points: offMap)), ("future", WalkRequest(points: future)), ("garbled time", WalkRequest(points: garbled)),
                ("long title", WalkRequest(points: good, title: String(repeating: "a", count: 101))),
                ("bad post id", WalkRequest(points: good, postID: "p1")),
                ("too many points", WalkRequest(points: Array(repeating: good[0], count: WalkService.maxPoints + 1))),
            ]
            for (name, request) in cases {
                let response = try await Self.post(client, harness, request)
                XCTAssertTrue([400, 413].contains(response.status.code), "\(name): \(response.status)")
            }
            let notJSON = try await client.execute(
                uri: "/v1/walks", method: .post, headers: try await harness.headers(GeoHarness.alice, [("content-type", "application/json")]),
                body: ByteBuffer(string: "{\"points\": \"many\"}"))
            XCTAssertEqual(notJSON.status, .badRequest)
        }
    }

    func testListIsTheOwnersNewestFirstInPages() async throws {
        let harness = try await GeoHarness.make()
        try await harness.app.contractTest { client in
            let good = Self.input(try Self.northward(3))
            var ids: [String] = []
            for title in ["a", "b", "c"] {
                let response = try await Self.post(client, harness, WalkRequest(points: good, title: title))
                ids.append(try JSON.string(try JSON.object(response.body), "walk_id"))
            }
            _ = try await Self.post(client, harness, WalkRequest(points: good, title: "bob's"), user: GeoHarness.bob)
            let first = try await client.execute(uri: "/v1/walks?limit=2", method: .get, headers: try await harness.headers())
            let page1 = try JSONCoding.decoder.decode(CursorPage<WalkAnswer>.self, from: first.body)
            XCTAssertEqual(page1.data.map(\.title), ["c", "b"])
            XCTAssertEqual(page1.nextCursor, ids[1])
            JSON.assertKeys(try JSON.object(first.body), ["data", "next_cursor"])
            let second = try await client.execute(
                uri: "/v1/walks?limit=2&next=\(page1.nextCursor)", method: .get, headers: try await harness.headers())
            let page2 = try JSONCoding.decoder.decode(CursorPage<WalkAnswer>.self, from: second.body)
            XCTAssertEqual(page2.data.map(\.title), ["a"])
            XCTAssertEqual(page2.nextCursor, "0")
            for bad in ["/v1/walks?limit=abc", "/v1/walks?next=zzz", "/v1/walks/not-an-id"] {
                let response = try await client.execute(uri: bad, method: .get, headers: try await harness.headers())
                XCTAssertEqual(response.status, .badRequest, bad)
            }
        }
    }
}
