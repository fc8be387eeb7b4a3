import Contracts
import Foundation
import NIOCore
import Simulators
import TestSupport
import XCTest

/// What the GLINT app does (API.md §1–3, §5): two users, a filter with its images, a like, a
/// comment, a purchase paid through PortOne, a post with a photo, a follow, a report and a chat
/// with a photo; then what it reads back, signed in again with the same passwords. `write`
/// leaves what `read` expects, so the reads can run on another deployment (an app imported).
struct GlintReplay {
    struct Written: Sendable {
        var aliceID: String
        var bobID: String
        var filterID: String
        var filterFiles: [String]
        var postID: String
        var photo: String
        var roomID: String
        var messages: [String]
    }

    static let password = "pass1234!"

    static func write(_ suite: AuthAndGateway, portOne: PortOneSimulator) async throws -> Written {
        func join(_ nick: String) async throws -> AuthAnswer {
            let answer = try await suite.call(
                .POST, "/v1/users/join",
                json: #"{"email":"\#(nick)@glint.app","password":"\#(password)","nick":"\#(nick)","deviceToken":"glint-device-\#(nick)"}"#)
            XCTAssertEqual(answer.status, 200, answer.body.text)
            return try JSONDecoder().decode(AuthAnswer.self, from: answer.body)
        }
        func ok(_ answer: HTTPProbe.Answer, _ what: String) throws -> [String: Any] {
            XCTAssertEqual(answer.status, 200, "\(what): \(answer.body.text)")
            return try JSON.object(answer.body)
        }
        let alice = try await join("alice"), bob = try await join("bob")
        let original = try await FilesInBucketTests.upload(suite, "/v1/filters/files", token: alice.accessToken)
        let filtered = try await FilesInBucketTests.upload(suite, "/v1/filters/files", token: alice.accessToken)
        let filter = try JSON.string(
            try ok(
                try await suite.call(
                    .POST, "/v1/filters", token: alice.accessToken,
                    json: """
                        {"category":"film","title":"노을","price":1500,"description":"따뜻한 색","files":["\(original)","\(filtered)"],
                         "filter_values":{"brightness":0.2,"temperature":5200}}
                        """), "filter"), "filter_id")
        _ = try ok(try await suite.call(.POST, "/v1/filters/\(filter)/like", token: bob.accessToken, json: #"{"like_status":true}"#), "like")
        _ = try ok(
            try await suite.call(.POST, "/v1/filters/\(filter)/comments", token: bob.accessToken, json: #"{"content":"색이 예뻐요"}"#), "comment")
        let order = try JSON.string(
            try ok(
                try await suite.call(.POST, "/v1/orders", token: bob.accessToken, json: #"{"filter_id":"\#(filter)","total_price":1500}"#), "order"),
            "order_code")
        let impUID = portOne.createPayment(merchantUID: order, amount: 1500)
        _ = try ok(try await suite.call(.POST, "/v1/payments/validation", token: bob.accessToken, json: #"{"imp_uid":"\#(impUID)"}"#), "payment")

        let photo = try await FilesInBucketTests.upload(suite, "/v1/posts/files", token: alice.accessToken)
        let post = try JSON.string(
            try ok(
                try await suite.call(
                    .POST, "/v1/posts", token: alice.accessToken,
                    json: ##"{"category":"daily","title":"오늘의 사진","content":"#노을 좋다","files":["\##(photo)"]}"##), "post"), "post_id")
        _ = try ok(try await suite.call(.POST, "/v1/follow/\(alice.userID)", token: bob.accessToken), "follow")
        _ = try ok(
            try await suite.call(
                .POST, "/v1/reports", token: bob.accessToken, json: #"{"target_type":"post","target_id":"\#(post)","reason":"광고"}"#), "report")

        let room = try JSON.string(
            try ok(try await suite.call(.POST, "/v1/chats", token: alice.accessToken, json: #"{"opponent_id":"\#(bob.userID)"}"#), "room"), "room_id")
        let chatPhoto = try await FilesInBucketTests.upload(suite, "/v1/chats/\(room)/files", token: alice.accessToken)
        var messages: [String] = []
        for (token, json) in [
            (alice.accessToken, #"{"content":"필터 샀어요?"}"#), (bob.accessToken, #"{"content":"네 방금 결제했어요"}"#),
            (alice.accessToken, #"{"content":"","files":["\#(chatPhoto)"]}"#),
        ] {
            messages.append(try JSON.string(try ok(try await suite.call(.POST, "/v1/chats/\(room)", token: token, json: json), "chat"), "chat_id"))
        }
        // The payment reaches market-svc through payment-verify-svc's outbox.
        let paid = await HTTPProbe.eventually(within: .seconds(30)) { () -> Bool? in
            guard let answer = try? await suite.call(.GET, "/v1/orders", token: bob.accessToken),
                let data = (try? JSON.object(answer.body))?["data"] as? [Any], data.count == 1
            else { return nil }
            return true
        }
        XCTAssertEqual(paid, true, "the order was paid")
        return Written(
            aliceID: alice.userID, bobID: bob.userID, filterID: filter, filterFiles: [original, filtered], postID: post, photo: photo, roomID: room,
            messages: messages)
    }

    static func read(_ suite: AuthAndGateway, _ written: Written) async throws {
        func login(_ nick: String) async throws -> String {
            let answer = try await suite.call(.POST, "/v1/users/login", json: #"{"email":"\#(nick)@glint.app","password":"\#(password)"}"#)
            XCTAssertEqual(answer.status, 200, "\(nick) signs in with the old password: \(answer.body.text)")
            return try JSON.string(try JSON.object(answer.body), "accessToken")
        }
        func object(_ path: String, _ token: String) async throws -> [String: Any] {
            let answer = try await suite.call(.GET, path, token: token)
            XCTAssertEqual(answer.status, 200, "\(path): \(answer.body.text)")
            return try JSON.object(answer.body)
        }
        let alice = try await login("alice"), bob = try await login("bob")

        let filters = try await object("/v1/filters", bob)["data"] as? [[String: Any]] ?? []
        XCTAssertEqual(filters.map { $0["filter_id"] as? String }, [written.filterID])
        let filter = try await object("/v1/filters/\(written.filterID)", bob)
        XCTAssertEqual(filter["title"] as? String, "노을")
        XCTAssertEqual(filter["files"] as? [String], written.filterFiles)
        XCTAssertEqual(filter["like_count"] as? Int, 1)
        XCTAssertEqual(filter["is_liked"] as? Bool, true)
        XCTAssertEqual(filter["buyer_count"] as? Int, 1)
        XCTAssertEqual(filter["is_downloaded"] as? Bool, true, "bob bought it")
        XCTAssertEqual((filter["filterValues"] as? [String: Any])?["temperature"] as? Int, 5200)
        XCTAssertEqual((filter["comments"] as? [[String: Any]])?.map { $0["content"] as? String }, ["색이 예뻐요"])
        let orders = try await object("/v1/orders", bob)["data"] as? [[String: Any]] ?? []
        XCTAssertEqual(orders.compactMap { ($0["filter"] as? [String: Any])?["id"] as? String }, [written.filterID])

        let post = try await object("/v1/posts/\(written.postID)", alice)
        XCTAssertEqual(post["title"] as? String, "오늘의 사진")
        XCTAssertEqual(post["files"] as? [String], [written.photo])
        XCTAssertEqual(post["hashTags"] as? [String], ["노을"])
        let profile = try await object("/v1/users/me/profile", alice)
        XCTAssertEqual((profile["followers"] as? [[String: Any]])?.map { $0["user_id"] as? String }, [written.bobID])
        XCTAssertEqual(profile["posts"] as? [String], [written.postID])
        let again = try await suite.call(
            .POST, "/v1/reports", token: bob, json: #"{"target_type":"post","target_id":"\#(written.postID)","reason":"광고"}"#)
        XCTAssertEqual(again.status, 409, "bob's report came along")

        let rooms = try await object("/v1/chats", alice)["data"] as? [[String: Any]] ?? []
        XCTAssertEqual(rooms.map { $0["room_id"] as? String }, [written.roomID])
        XCTAssertEqual((rooms.first?["lastChat"] as? [String: Any])?["chat_id"] as? String, written.messages.last, "the room's last message")
        let chats = try await object("/v1/chats/\(written.roomID)", bob)["data"] as? [[String: Any]] ?? []
        XCTAssertEqual(chats.map { $0["chat_id"] as? String }, written.messages, "in the order they were sent")
        let found = try await object("/v1/chats/\(written.roomID)/search?q=결제", bob)["data"] as? [[String: Any]] ?? []
        XCTAssertEqual(found.map { $0["chat_id"] as? String }, [written.messages[1]], "the search index holds the messages")

        // Every file the records name is served.
        for path in written.filterFiles + [written.photo] + ((chats.last?["files"] as? [String]) ?? []) {
            let answer = try await suite.call(.GET, "/v1" + path, token: alice)
            XCTAssertEqual(answer.status, 200, path)
            XCTAssertEqual(Array(answer.body.readableBytesView), FilesInBucketTests.photo, path)
        }
    }
}
