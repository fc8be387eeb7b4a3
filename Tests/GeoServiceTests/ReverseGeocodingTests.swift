import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import GeoService

/// Reverse geocoding against the shared legal-dong data. Expected regions were read from the
/// data file itself with an independent point-in-polygon script and match the places' real
/// addresses.
final class ReverseGeocodingTests: XCTestCase {
    static let places: [(name: String, longitude: Double, latitude: Double, code: String, address: String)] = [
        ("Seoul City Hall", 126.9780, 37.5665, "1114010300", "서울특별시 중구 태평로1가"),
        ("Gyeongbokgung", 126.9770, 37.5796, "1111011900", "서울특별시 종로구 세종로"),
        ("COEX", 127.0590, 37.5118, "1168010500", "서울특별시 강남구 삼성동"),
        ("Haeundae beach", 129.1604, 35.1587, "2635010500", "부산광역시 해운대구 우동"),
        ("Incheon airport", 126.4407, 37.4602, "2811014700", "인천광역시 중구 운서동"),
        ("Jeju airport", 126.4930, 33.5104, "5011010900", "제주특별자치도 제주시 용담이동"),
        ("Daejeon station", 127.4341, 36.3326, "3011011900", "대전광역시 동구 정동"),
        ("Gwangju city hall", 126.8515, 35.1601, "2914012000", "광주광역시 서구 치평동"),
        ("Daegu station", 128.5963, 35.8757, "2723010200", "대구광역시 북구 칠성동2가"),
        ("Ulsan city hall", 129.3114, 35.5384, "3114010400", "울산광역시 남구 신정동"),
        ("Sejong government complex", 127.2611, 36.5040, "3611011000", "세종특별자치시 세종시 어진동"),
        ("Dokdo", 131.8696, 37.2426, "4794025000", "경상북도 울릉군 울릉읍"),
        ("Hwaseong Haenggung, Suwon", 127.0136, 37.2818, "4111512300", "경기도 수원시팔달구 남창동"),
        ("Chuncheon city hall", 127.7298, 37.8813, "4211010700", "강원특별자치도 춘천시 옥천동"),
        ("Jeonju Hanok village", 127.1530, 35.8150, "4511111000", "전라북도 전주시완산구 풍남동3가"),
        ("Bulguksa, Gyeongju", 129.3320, 35.7900, "4713013400", "경상북도 경주시 진현동"),
    ]

    private static func reverse(_ client: some TestClientProtocol, _ harness: GeoHarness, _ query: String) async throws -> TestResponse {
        try await client.execute(uri: "/v1/geo/reverse?" + query, method: .get, headers: try await harness.headers())
    }

    func testWellKnownPlacesAnswerTheKakaoShape() async throws {
        let harness = try await GeoHarness.make(geocoder: try GeoHarness.boundaries.get())
        try await harness.app.contractTest { client in
            for place in Self.places {
                let response = try await Self.reverse(client, harness, "longitude=\(place.longitude)&latitude=\(place.latitude)")
                XCTAssertEqual(response.status, .ok, place.name)
                let body = try JSON.object(response.body)
                JSON.assertKeys(body, ["region_type", "region_1depth_name", "region_2depth_name", "region_3depth_name", "code", "address_name"])
                XCTAssertEqual(body["region_type"] as? String, "B")
                XCTAssertEqual(body["code"] as? String, place.code, place.name)
                XCTAssertEqual(body["address_name"] as? String, place.address, place.name)
                let parts = place.address.split(separator: " ").map(String.init)
                XCTAssertEqual([body["region_1depth_name"], body["region_2depth_name"], body["region_3depth_name"]].map { $0 as? String }, parts)
            }
        }
    }

    func testSeaAndAbroadAreNotFound() async throws {
        let harness = try await GeoHarness.make(geocoder: try GeoHarness.boundaries.get())
        try await harness.app.contractTest { client in
            for (name, longitude, latitude) in [
                ("East Sea off Busan", 129.5, 35.0), ("Yellow Sea", 125.0, 36.0), ("south of Jeju", 126.5, 33.0),
                ("Tokyo", 139.69, 35.69), ("Pyongyang", 125.75, 39.03), ("Null Island", 0.0, 0.0),
            ] {
                let response = try await Self.reverse(client, harness, "longitude=\(longitude)&latitude=\(latitude)")
                XCTAssertEqual(response.status, .notFound, name)
                XCTAssertFalse(try JSON.string(try JSON.object(response.body), "message").isEmpty)
            }
        }
    }

    /// (126.97472, 37.57555) is a vertex shared by 적선동 (11110107) and 세종로 (11110119): the data's
    /// rule (contains or touches, smallest code wins) picks 적선동, though a plain ray cast says 세종로.
    func testABoundaryPointGoesToTheSmallestCode() throws {
        let geocoder = try GeoHarness.boundaries.get()
        let region = try geocoder.region(at: try Coordinate(latitude: 37.57555, longitude: 126.97472))
        XCTAssertEqual(region?.code, "11110107")
        XCTAssertEqual(region?.dong, "적선동")
    }

    func testEveryRegionIsLoaded() throws {
        let geocoder = try GeoHarness.boundaries.get()
        let region = try geocoder.region(at: try Coordinate(latitude: 37.5665, longitude: 126.9780))
        XCTAssertNotNil(region)
        let index = try RegionIndex(BoundaryFile.read(path: XCTUnwrap(GeoSettings.shippedBoundaries)))
        XCTAssertEqual(index.regions.count, 5025)
        XCTAssertEqual(Set(index.regions.map(\.code)).count, 5025)
    }

    func testMalformedCoordinatesAreBadRequests() async throws {
        let harness = try await GeoHarness.make(geocoder: try GeoHarness.boundaries.get())
        try await harness.app.contractTest { client in
            for query in [
                "", "longitude=126.9", "latitude=37.5", "longitude=abc&latitude=37.5", "longitude=126.9&latitude=91",
                "longitude=181&latitude=37.5", "longitude=nan&latitude=37.5", "longitude=inf&latitude=37.5",
                "longitude=0x1p3&latitude=37.5", "longitude=&latitude=",
            ] {
                let response = try await Self.reverse(client, harness, query)
                XCTAssertEqual(response.status, .badRequest, query)
            }
        }
    }

    func testWithoutDataTheServiceAnswers503() async throws {
        let harness = try await GeoHarness.make()
        try await harness.app.contractTest { client in
            let response = try await Self.reverse(client, harness, "longitude=126.978&latitude=37.5665")
            XCTAssertEqual(response.status, .serviceUnavailable)
            XCTAssertEqual(try JSON.string(try JSON.object(response.body), "message"), "reverse geocoding is not configured on this server")
            let health = try await client.execute(uri: "/health", method: .get)
            XCTAssertEqual(health.status, .ok, "the service runs without boundary data")
        }
    }

    func testAMissingFileLeavesTheServiceRunning() throws {
        let geocoder = ReverseGeocoder.load(path: "/nonexistent/boundaries.geojson.gz", logger: TestEnvironment.logger)
        XCTAssertThrowsError(try geocoder.region(at: try Coordinate(latitude: 37.5, longitude: 127))) { error in
            XCTAssertEqual((error as? ServiceError)?.code, .unavailable)
        }
        XCTAssertEqual(try geocoder.address(at: Coordinate(latitude: 37.5, longitude: 127)), "")
    }

    func testReverseNeedsAToken() async throws {
        let harness = try await GeoHarness.make(geocoder: try GeoHarness.boundaries.get())
        try await harness.app.contractTest { client in
            let response = try await client.execute(
                uri: "/v1/geo/reverse?longitude=126.978&latitude=37.5665", method: .get,
                headers: TestEnvironment.fields(app: GeoHarness.appID))
            XCTAssertEqual(response.status, .unauthorized)
        }
    }
}
