import Contracts
import Foundation
import NIOCore
import ServiceKit
import TestSupport
import XCTest

/// SpotChat's "create a post" flow as the released app sends it, through the gateway to real
/// auth-svc, market-svc and geo-svc processes (issue 19): an upload whose only part is the 0-byte
/// one it sends when no picture was chosen, a post with `category: ""`, and the post found on
/// the map, by its hashtag, among its author's posts and in the profile.
final class SpotChatThroughGatewayTests: XCTestCase {
    func testSpotChatsPostFlow() async throws {
        let suite = try await AuthAndGateway.start([:], with: [.market, .geo])
        do {
            let joined = try await suite.call(.POST, "/v1/users/join", json: #"{"email":"spot@glint.app","password":"pass1234!","nick":"spot"}"#)
            XCTAssertEqual(joined.status, 200, joined.body.text)
            let login = try await suite.call(.POST, "/v1/users/login", json: #"{"email":"spot@glint.app","password":"pass1234!"}"#)
            XCTAssertEqual(login.status, 200, login.body.text)
            let auth = try JSONDecoder().decode(AuthAnswer.self, from: login.body)

            let nothingPicked = MultipartBody(parts: [.file("files", filename: "", contentType: "application/octet-stream", bytes: [])])
            let upload = try await HTTPProbe.call(
                .POST, suite.gatewayURL + "/v1/posts/files",
                headers: [
                    ("SeSACKey", AuthAndGateway.appKey), ("Authorization", auth.accessToken), ("Content-Type", nothingPicked.contentType),
                ], body: nothingPicked.buffer)
            XCTAssertEqual(upload.status, 200, upload.body.text)
            let files = try XCTUnwrap(try JSON.object(upload.body)["files"] as? [String])
            XCTAssertEqual(files, [])

            let body = ##"{"category":"","title":"같이 걸어요","price":1000,"content":"한강에서 #산책 해요","files":[],"longitude":126.9780,"latitude":37.5665}"##
            let created = try await suite.call(.POST, "/v1/posts", token: auth.accessToken, json: body)
            XCTAssertEqual(created.status, 200, created.body.text)
            let post = try JSON.object(created.body)
            let postID = try JSON.string(post, "post_id")
            XCTAssertEqual(post["category"] as? String, "")
            XCTAssertEqual(post["price"] as? Int, 1000)

            @Sendable func ids(_ path: String) async throws -> [String] {
                let answer = try await suite.call(.GET, path, token: auth.accessToken)
                XCTAssertEqual(answer.status, 200, "\(path): \(answer.body.text)")
                return try XCTUnwrap(try JSON.object(answer.body)["data"] as? [[String: Any]]).compactMap { $0["post_id"] as? String }
            }
            let onTheMap = await HTTPProbe.eventually(within: .seconds(15)) { () -> [String]? in
                let found = try? await ids("/v1/posts/geolocation?longitude=126.9780&latitude=37.5665&maxDistance=500.0")
                return found?.isEmpty == false ? found : nil
            }
            XCTAssertEqual(onTheMap, [postID], "the map finds it (its location reached geo-svc)")
            let tag = "%23" + ("산책".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let tagged = try await ids("/v1/posts/hashtags?hashTag=\(tag)")
            XCTAssertEqual(tagged, [postID])
            let theirs = try await ids("/v1/posts/users/\(auth.userID)")
            XCTAssertEqual(theirs, [postID])
            let profile = try JSON.object(try await suite.call(.GET, "/v1/users/me/profile", token: auth.accessToken).body)
            XCTAssertEqual(profile["posts"] as? [String], [postID], "the profile counts it")
        } catch {
            await suite.stop()
            throw error
        }
        await suite.stop()
    }
}
