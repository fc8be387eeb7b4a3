import Contracts
import Foundation
import NIOCore
import ServiceKit
import TestSupport
import XCTest

/// auth-svc, market-svc, geo-svc and the gateway as real processes: a located post reaches the
/// radius search through market-svc's outbox, and geo-svc's answers come back through the gateway.
final class GeoThroughGatewayTests: XCTestCase {
    func testLocatedPostsReverseGeocodingAndWalksThroughTheGateway() async throws {
        // Empty: the boundary file geo-svc ships with.
        let suite = try await AuthAndGateway.start(["GEO_BOUNDARIES_FILE": ""], with: [.market, .geo])
        do {
            let joined = try await suite.call(.POST, "/v1/users/join", json: #"{"email":"walker@glint.app","password":"pass1234!","nick":"walker"}"#)
            let token = try JSONDecoder().decode(AuthAnswer.self, from: joined.body).accessToken
            // Gangnam station, and a post 30 km away in Suwon.
            let near = try await suite.call(
                .POST, "/v1/posts", token: token,
                json: #"{"category":"walk","title":"near","content":"","longitude":127.0276,"latitude":37.4979}"#)
            XCTAssertEqual(near.status, 200, near.body.text)
            let far = try await suite.call(
                .POST, "/v1/posts", token: token,
                json: #"{"category":"walk","title":"far","content":"","longitude":127.0136,"latitude":37.2818}"#)
            XCTAssertEqual(far.status, 200, far.body.text)
            let nearID = try JSON.string(try JSON.object(near.body), "post_id")

            let query = "/v1/posts/geolocation?longitude=127.0280&latitude=37.4980&maxDistance=1000.0"
            let found = await HTTPProbe.eventually(within: .seconds(15)) { () -> ByteBuffer? in
                guard let answer = try? await suite.call(.GET, query, token: token), answer.status == 200,
                    let data = (try? JSON.object(answer.body))?["data"] as? [Any], !data.isEmpty
                else { return nil }
                return answer.body
            }
            let posts = try XCTUnwrap(try JSON.object(try XCTUnwrap(found, "the post never reached geo-svc"))["data"] as? [[String: Any]])
            XCTAssertEqual(posts.map { $0["post_id"] as? String }, [nearID], "the far post is outside 1 km")
            XCTAssertEqual(posts[0]["title"] as? String, "near", "rendered by market-svc")
            XCTAssertEqual(try XCTUnwrap(posts[0]["distance"] as? Double), 37, accuracy: 2)
            XCTAssertEqual((posts[0]["creator"] as? [String: Any])?["nick"] as? String, "walker")

            let deleted = try await suite.call(.DELETE, "/v1/posts/\(nearID)", token: token)
            XCTAssertEqual(deleted.status, 200)
            let emptied = await HTTPProbe.eventually(within: .seconds(15)) { () -> Bool? in
                guard let answer = try? await suite.call(.GET, query, token: token),
                    let data = (try? JSON.object(answer.body))?["data"] as? [Any], data.isEmpty
                else { return nil }
                return true
            }
            XCTAssertEqual(emptied, true, "a deleted post leaves the map")

            let reverse = try await suite.call(.GET, "/v1/geo/reverse?longitude=126.9780&latitude=37.5665", token: token)
            XCTAssertEqual(reverse.status, 200, reverse.body.text)
            XCTAssertEqual(try JSON.object(reverse.body)["address_name"] as? String, "서울특별시 중구 태평로1가")
            let sea = try await suite.call(.GET, "/v1/geo/reverse?longitude=129.5&latitude=35.0", token: token)
            XCTAssertEqual(sea.status, 404)
            let malformed = try await suite.call(.GET, "/v1/geo/reverse?longitude=east&latitude=37.5", token: token)
            XCTAssertEqual(malformed.status, 400)
            JSON.assertKeys(try JSON.object(malformed.body), ["message"])

            let walk = try await suite.call(
                .POST, "/v1/walks", token: token,
                json: """
                    {"points":[{"latitude":37.5665,"longitude":126.978,"timestamp":1732000000},
                               {"latitude":37.5675,"longitude":126.978,"timestamp":1732000080}],"title":"lunch"}
                    """)
            XCTAssertEqual(walk.status, 200, walk.body.text)
            let walkID = try JSON.string(try JSON.object(walk.body), "walk_id")
            let listed = try await suite.call(.GET, "/v1/walks", token: token)
            XCTAssertEqual(((try JSON.object(listed.body))["data"] as? [[String: Any]])?.first?["walk_id"] as? String, walkID)
            XCTAssertEqual(((try JSON.object(listed.body))["data"] as? [[String: Any]])?.first?["start_address"] as? String, "서울특별시 중구 태평로1가")
        } catch {
            await suite.stop()
            throw error
        }
        await suite.stop()
    }
}
