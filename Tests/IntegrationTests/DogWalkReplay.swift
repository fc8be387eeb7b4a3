import Contracts
import Foundation
import NIOCore
import TestSupport
import XCTest

/// What the DogWalk app does under its own key (API.md §1–4): a walker posts from a park and
/// records a walk; then signs in again and finds the post on the map, in the feed, and the walk.
/// `write` leaves what `read` expects, so the reads can run on another deployment.
struct DogWalkReplay {
    static let key = "dogwalk-app-key"
    static let login = #"{"email":"walker@dogwalk.app","password":"walk1234!"}"#
    /// A post at Seoul Forest, and where the app asks from (about 60 m away).
    static let map = "/v1/posts/geolocation?longitude=127.0380&latitude=37.5440&maxDistance=500.0"

    struct Written: Sendable {
        var postID: String
        var walkID: String
        var distance: Double
    }

    static func write(_ suite: AuthAndGateway) async throws -> Written {
        let joined = try await suite.call(
            .POST, "/v1/users/join", key: key, json: #"{"email":"walker@dogwalk.app","password":"walk1234!","nick":"산책왕"}"#)
        XCTAssertEqual(joined.status, 200, joined.body.text)
        let token = try JSON.string(try JSON.object(joined.body), "accessToken")
        let posted = try await suite.call(
            .POST, "/v1/posts", key: key, token: token,
            json: ##"{"category":"walk","title":"서울숲 한 바퀴","content":"#산책","longitude":127.0375,"latitude":37.5444}"##)
        XCTAssertEqual(posted.status, 200, posted.body.text)
        let post = try JSON.string(try JSON.object(posted.body), "post_id")
        let walked = try await suite.call(
            .POST, "/v1/walks", key: key, token: token,
            json: """
                {"points":[{"latitude":37.5444,"longitude":127.0375,"timestamp":1732000000},
                           {"latitude":37.5460,"longitude":127.0390,"timestamp":1732000300},
                           {"latitude":37.5475,"longitude":127.0410,"timestamp":1732000600}],"title":"아침 산책","post_id":"\(post)"}
                """)
        XCTAssertEqual(walked.status, 200, walked.body.text)
        let walk = try JSON.object(walked.body)
        // The post reaches geo-svc's map through market-svc's outbox.
        let placed = await HTTPProbe.eventually(within: .seconds(30)) { () -> Bool? in
            guard let answer = try? await suite.call(.GET, map, key: key, token: token),
                let data = (try? JSON.object(answer.body))?["data"] as? [Any], !data.isEmpty
            else { return nil }
            return true
        }
        XCTAssertEqual(placed, true, "the post is on the map")
        return Written(postID: post, walkID: try JSON.string(walk, "walk_id"), distance: try XCTUnwrap(walk["distance_m"] as? Double))
    }

    /// `key`: the app's key where it was imported with a new one.
    static func read(_ suite: AuthAndGateway, _ written: Written, key: String = key) async throws {
        let signedIn = try await suite.call(.POST, "/v1/users/login", key: key, json: login)
        XCTAssertEqual(signedIn.status, 200, "the walker signs in with the old password: \(signedIn.body.text)")
        let token = try JSON.string(try JSON.object(signedIn.body), "accessToken")
        func data(_ path: String) async throws -> [[String: Any]] {
            let answer = try await suite.call(.GET, path, key: key, token: token)
            XCTAssertEqual(answer.status, 200, "\(path): \(answer.body.text)")
            return try XCTUnwrap(try JSON.object(answer.body)["data"] as? [[String: Any]], path)
        }
        let near = try await data(map)
        XCTAssertEqual(near.map { $0["post_id"] as? String }, [written.postID], "the map finds the post")
        XCTAssertEqual(try XCTUnwrap(near.first?["distance"] as? Double), 60, accuracy: 15)
        let feed = try await data("/v1/posts")
        XCTAssertEqual(feed.map { $0["post_id"] as? String }, [written.postID])
        let walks = try await data("/v1/walks")
        XCTAssertEqual(walks.map { $0["walk_id"] as? String }, [written.walkID])
        let walk = try await suite.call(.GET, "/v1/walks/\(written.walkID)", key: key, token: token)
        XCTAssertEqual(walk.status, 200, walk.body.text)
        XCTAssertEqual(try XCTUnwrap(try JSON.object(walk.body)["distance_m"] as? Double), written.distance, accuracy: 0.001)
    }
}
