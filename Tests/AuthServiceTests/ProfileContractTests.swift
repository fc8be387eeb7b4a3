import Contracts
import FileStorage
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

final class ProfileContractTests: XCTestCase {
    static let profileKeys: Set<String> = [
        "user_id", "email", "nick", "phoneNum", "gender", "birthDay", "info1", "info2", "info3", "info4", "info5",
        "followers", "following", "posts", "name", "introduction", "description", "hashTags",
    ]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100)

    func testProfileKeyByKeyWithNoNulls() async throws {
        let harness = try await AuthHarness.make(postIDs: ["6740369b3a36e82f532ec721"])
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "me@glint.app", nick: "me")
            let response = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: auth.accessToken))
            XCTAssertEqual(response.status, .ok)
            let object = try JSON.object(response.body)
            JSON.assertKeys(object, Self.profileKeys)
            for key in ["phoneNum", "gender", "birthDay", "info1", "info2", "info3", "info4", "info5", "name", "introduction", "description"] {
                XCTAssertEqual(object[key] as? String, "", key)
            }
            XCTAssertEqual(object["posts"] as? [String], ["6740369b3a36e82f532ec721"])
            XCTAssertEqual((object["followers"] as? [Any])?.count, 0)
            XCTAssertEqual((object["hashTags"] as? [String]), [])

            let other = try await client.execute(
                uri: "/v1/users/\(auth.userID)/profile", method: .get, headers: harness.headers(token: auth.accessToken))
            XCTAssertEqual(try JSON.object(other.body)["nick"] as? String, "me")
            let unknown = try await client.execute(
                uri: "/v1/users/6740369b3a36e82f532ec721/profile", method: .get, headers: harness.headers(token: auth.accessToken))
            XCTAssertEqual(unknown.status, .notFound)
            let invalid = try await client.execute(
                uri: "/v1/users/not-an-id/profile", method: .get, headers: harness.headers(token: auth.accessToken))
            XCTAssertEqual(invalid.status, .badRequest)
        }
    }

    func testUpdateWithJSON() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "u@glint.app", nick: "before")
            struct Update: Encodable { var nick = "after"; var introduction = "안녕하세요"; var hashTags = ["sunset", "필름"]; var info3 = "x" }
            let response = try await client.send(.put, "/v1/users/me/profile", headers: harness.headers(token: auth.accessToken), json: Update())
            XCTAssertEqual(response.status, .ok)
            let object = try JSON.object(response.body)
            JSON.assertKeys(object, Self.profileKeys)
            XCTAssertEqual(object["nick"] as? String, "after")
            XCTAssertEqual(object["introduction"] as? String, "안녕하세요")
            XCTAssertEqual(object["hashTags"] as? [String], ["sunset", "필름"])
            XCTAssertEqual(object["info3"] as? String, "x")
            let tooLong = try await client.send(
                .put, "/v1/users/me/profile", headers: harness.headers(token: auth.accessToken),
                json: RawJSON(["introduction": String(repeating: "a", count: 1001)]))
            XCTAssertEqual(tooLong.status, .badRequest)
        }
    }

    func testUpdateWithMultipartImageAndServeIt() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "img@glint.app")
            let form = MultipartBody(parts: [
                .field("nick", "photographer"),
                .file("profile", filename: "me.jpg", contentType: "image/jpeg", bytes: Self.png),
            ])
            let response = try await client.execute(
                uri: "/v1/users/me/profile", method: .put,
                headers: harness.headers(token: auth.accessToken, [("content-type", form.contentType)]), body: form.buffer)
            XCTAssertEqual(response.status, .ok, response.body.text)
            let object = try JSON.object(response.body)
            let path = try JSON.string(object, "profileImage")
            XCTAssertTrue(path.hasPrefix("/data/profiles/") && path.hasSuffix(".png"), "named by its bytes, not the filename: \(path)")
            XCTAssertEqual(object["nick"] as? String, "photographer")

            let file = try await client.execute(uri: "/v1" + path, method: .get, headers: harness.headers())
            XCTAssertEqual(file.status, .ok)
            XCTAssertEqual(Array(file.body.readableBytesView), Self.png)
            XCTAssertEqual(file.headers[.contentType], "image/png")
            let etag = try XCTUnwrap(file.headers[.eTag])
            XCTAssertNotNil(file.headers[.cacheControl])
            let head = try await client.execute(uri: "/v1" + path, method: .head, headers: harness.headers())
            XCTAssertEqual(head.status, .ok)
            XCTAssertEqual(head.body.readableBytes, 0)
            let cached = try await client.execute(uri: "/v1" + path, method: .get, headers: harness.headers([("If-None-Match", etag)]))
            XCTAssertEqual(cached.status, .notModified)
            let missing = try await client.execute(uri: "/v1/data/profiles/6740369b3a36e82f532ec721.png", method: .get, headers: harness.headers())
            XCTAssertEqual(missing.status, .notFound)
            let traversal = try await client.execute(uri: "/v1/data/profiles/..%2Fauth-svc.sqlite", method: .get, headers: harness.headers())
            XCTAssertEqual(traversal.status, .notFound)

            // A 0-byte part means "nothing picked": the image stays.
            let empty = MultipartBody(parts: [.file("profile", filename: "", contentType: "application/octet-stream", bytes: [])])
            let unchanged = try await client.execute(
                uri: "/v1/users/me/profile", method: .put,
                headers: harness.headers(token: auth.accessToken, [("content-type", empty.contentType)]), body: empty.buffer)
            XCTAssertEqual(try JSON.object(unchanged.body)["profileImage"] as? String, path)

            let text = MultipartBody(parts: [.file("profile", filename: "fake.jpg", contentType: "image/jpeg", bytes: Array("not an image".utf8))])
            let rejected = try await client.execute(
                uri: "/v1/users/me/profile", method: .put,
                headers: harness.headers(token: auth.accessToken, [("content-type", text.contentType)]), body: text.buffer)
            XCTAssertEqual(rejected.status, .badRequest)
            let huge = MultipartBody(parts: [
                .file("profile", filename: "big.png", contentType: "image/png", bytes: Self.png + Array(repeating: 0, count: 5 << 20))
            ])
            let tooBig = try await client.execute(
                uri: "/v1/users/me/profile", method: .put,
                headers: harness.headers(token: auth.accessToken, [("content-type", huge.contentType)]), body: huge.buffer)
            XCTAssertEqual(tooBig.status.code, 413)
        }
    }

    func testSearchFollowBlockReportAttendance() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let alice = try await client.join(harness, email: "alice@glint.app", nick: "Alice")
            let bob = try await client.join(harness, email: "bob@glint.app", nick: "Bobby")
            let me = harness.headers(token: alice.accessToken)

            let search = try await client.execute(uri: "/v1/users/search?nick=bob", method: .get, headers: me)
            let data = try XCTUnwrap(try JSON.object(search.body)["data"] as? [[String: Any]])
            XCTAssertEqual(data.count, 1)
            JSON.assertKeys(data[0], ["user_id", "nick"])
            XCTAssertEqual(data[0]["nick"] as? String, "Bobby")
            let emptySearch = try await client.execute(uri: "/v1/users/search", method: .get, headers: me)
            XCTAssertEqual(emptySearch.status, .badRequest)

            let follow = try await client.execute(uri: "/v1/follow/\(bob.userID)", method: .post, headers: me)
            XCTAssertEqual(try JSON.object(follow.body) as NSDictionary, ["nick": "Alice", "opponent_nick": "Bobby", "following_status": true])
            let twice = try await client.execute(uri: "/v1/follow/\(bob.userID)", method: .post, headers: me)
            XCTAssertEqual(twice.status, .conflict)
            let selfFollow = try await client.execute(uri: "/v1/follow/\(alice.userID)", method: .post, headers: me)
            XCTAssertEqual(selfFollow.status, .badRequest)
            let bobProfile = try JSON.object(try await client.execute(uri: "/v1/users/\(bob.userID)/profile", method: .get, headers: me).body)
            let followers = try XCTUnwrap(bobProfile["followers"] as? [[String: Any]])
            XCTAssertEqual(followers.first?["user_id"] as? String, alice.userID)
            JSON.assertKeys(try XCTUnwrap(followers.first), ["user_id", "nick"])
            let unfollow = try await client.execute(uri: "/v1/follow/\(bob.userID)", method: .delete, headers: me)
            XCTAssertEqual(try JSON.object(unfollow.body)["following_status"] as? Bool, false)

            let block = try await client.execute(uri: "/v1/users/\(bob.userID)/block", method: .post, headers: me)
            XCTAssertEqual(try JSON.object(block.body) as? [String: Bool], ["blocked": true])
            let blocked = try await client.execute(uri: "/internal/users/\(alice.userID)/blocked", method: .get, headers: harness.headers())
            XCTAssertEqual(try JSON.object(blocked.body) as? [String: [String]], ["user_ids": [bob.userID]])
            let unblock = try await client.execute(uri: "/v1/users/\(bob.userID)/block", method: .delete, headers: me)
            XCTAssertEqual(try JSON.object(unblock.body) as? [String: Bool], ["blocked": false])

            let report = try await client.send(
                .post, "/v1/reports", headers: me, json: ReportRequest(targetType: "user", targetID: bob.userID, reason: "spam"))
            XCTAssertEqual(report.status, .ok)
            let reportObject = try JSON.object(report.body)
            JSON.assertKeys(reportObject, ["report_id"])
            XCTAssertTrue(ObjectID.isValid(try JSON.string(reportObject, "report_id")))
            let duplicate = try await client.send(
                .post, "/v1/reports", headers: me, json: ReportRequest(targetType: "user", targetID: bob.userID, reason: "again"))
            XCTAssertEqual(duplicate.status, .conflict)
            let badType = try await client.send(
                .post, "/v1/reports", headers: me, json: ReportRequest(targetType: "planet", targetID: bob.userID, reason: "x"))
            XCTAssertEqual(badType.status, .badRequest)

            let attend = try await client.execute(uri: "/v1/users/attendance", method: .post, headers: me)
            XCTAssertEqual(try JSON.object(attend.body) as? [String: Int], ["attendanceCount": 1])
            let again = try await client.execute(uri: "/v1/users/attendance", method: .post, headers: me)
            XCTAssertEqual(again.status, .conflict, "once per day")
        }
    }

    func testInternalBatchLookup() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let a = try await client.join(harness, email: "a@glint.app", nick: "a")
            let b = try await client.join(harness, email: "b@glint.app", nick: "b")
            let response = try await client.send(
                .post, "/internal/users/lookup", headers: harness.headers(),
                json: UserLookupRequest(userIDs: [a.userID, b.userID, "6740369b3a36e82f532ec721", "junk"]))
            XCTAssertEqual(response.status, .ok)
            let users = try XCTUnwrap(try JSON.object(response.body)["users"] as? [[String: Any]])
            XCTAssertEqual(Set(users.compactMap { $0["user_id"] as? String }), [a.userID, b.userID])
            JSON.assertKeys(users[0], ["user_id", "nick", "name", "introduction", "description", "hashTags"])
            let tooMany = try await client.send(
                .post, "/internal/users/lookup", headers: harness.headers(),
                json: UserLookupRequest(userIDs: Array(repeating: a.userID, count: 501)))
            XCTAssertEqual(tooMany.status, .badRequest)
        }
    }

    func testAttendanceDayIsSeoulTime() async throws {
        let harness = try await AuthHarness.make()
        let service = ProfileService(
            store: harness.stores.profiles, users: harness.stores.users, market: .failing,
            images: FileStore(backend: LocalFileBackend(dataDirectory: harness.dataDirectory), service: .auth, area: "profiles"),
            usersChanged: harness.usersChangedClient)
        // While the service runs: its store closes with it (PostgreSQL's pool does).
        try await harness.app.contractTest { client in
            let user = try await client.join(harness, email: "day@glint.app")
            let caller = AuthenticatedUser(userID: user.userID, appID: harness.appID, sessionID: "s", expiresAt: Date())
            // 2024-11-22 14:59:59.999 UTC is 23:59:59.999 in Seoul; one ms later is the next Seoul day.
            let lastMoment = GlintDate.milliseconds(from: "2024-11-22T14:59:59.999Z")!
            let first = try await service.attend(caller, now: lastMoment)
            let second = try await service.attend(caller, now: lastMoment + 1)
            XCTAssertEqual(first.attendanceCount, 1)
            XCTAssertEqual(second.attendanceCount, 2)
        }
    }
}
