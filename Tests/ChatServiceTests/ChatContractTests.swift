import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

final class ChatContractTests: XCTestCase {
    typealias H = ChatHarness

    func testRoomShapesAndTheSameRoomForAPair() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let response = try await client.execute(
                uri: "/v1/chats", method: .post, headers: try await harness.headers(H.alice),
                body: JSONCoding.encode(OpenRoomRequest(opponentID: H.bob)))
            XCTAssertEqual(response.status, .ok)
            let room = try JSON.object(response.body)
            JSON.assertKeys(room, ["room_id", "createdAt", "updatedAt", "participants"])
            XCTAssertNotNil(GlintDate.milliseconds(from: try JSON.string(room, "createdAt")))
            let participants = try XCTUnwrap(room["participants"] as? [[String: Any]])
            XCTAssertEqual(Set(participants.compactMap { $0["user_id"] as? String }), [H.alice, H.bob])
            for participant in participants { JSON.assertKeys(participant, ["user_id", "nick"]) }
            let actual1 = try await harness.room(client, H.bob, with: H.alice)
            XCTAssertEqual(actual1, try JSON.string(room, "room_id"))

            for (body, status) in [
                (#"{"opponent_id":"6740369b3a36e82f532ec7ff"}"#, HTTPResponse.Status.notFound),
                (#"{"opponent_id":"6740369b3a36e82f532ec721"}"#, .badRequest),
                (#"{"opponent_id":"nope"}"#, .badRequest), (#"{}"#, .badRequest),
            ] {
                let refused = try await client.execute(
                    uri: "/v1/chats", method: .post, headers: try await harness.headers(H.alice), body: ByteBuffer(string: body))
                XCTAssertEqual(refused.status, status, body)
            }
            let anonymous = try await client.execute(uri: "/v1/chats", method: .get, headers: TestEnvironment.fields(app: H.appID))
            XCTAssertEqual(anonymous.status, .unauthorized)
        }
    }

    /// API.md §1: a blocked user's messages disappear for the blocker, in history and search.
    func testABlockedUsersMessagesDisappearForTheBlocker() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let room = try await harness.room(client, H.alice, with: H.bob)
            let mine = try await harness.send(client, H.alice, room: room, SendChatRequest(content: "hello from alice"))
            let theirs = try await harness.send(client, H.bob, room: room, SendChatRequest(content: "hello from bob"))
            func ids(_ uri: String, as user: String) async throws -> [String] {
                let response = try await client.execute(uri: uri, method: .get, headers: try await harness.headers(user))
                XCTAssertEqual(response.status, .ok, response.body.text)
                return try XCTUnwrap(try JSON.object(response.body)["data"] as? [[String: Any]]).compactMap { $0["chat_id"] as? String }
            }
            let both = [try JSON.string(mine, "chat_id"), try JSON.string(theirs, "chat_id")]
            var history = try await ids("/v1/chats/\(room)", as: H.alice)
            XCTAssertEqual(history, both)
            harness.blocks.block(H.bob, by: H.alice)
            history = try await ids("/v1/chats/\(room)", as: H.alice)
            XCTAssertEqual(history, [both[0]], "bob's message is gone for alice")
            let found = try await ids("/v1/chats/\(room)/search?q=hello", as: H.alice)
            XCTAssertEqual(found, [both[0]])
            let bobsView = try await ids("/v1/chats/\(room)", as: H.bob)
            XCTAssertEqual(bobsView, both, "the blocked user still sees the room as it was")
        }
    }

    func testSendShapeIdempotencyAndParticipantsOnly() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let room = try await harness.room(client, H.alice, with: H.bob)
            let chat = try await harness.send(client, H.alice, room: room, SendChatRequest(content: "안녕 hello", clientID: "c-1"))
            JSON.assertKeys(chat, H.chatKeys)
            XCTAssertEqual(chat["room_id"] as? String, room)
            XCTAssertEqual(chat["files"] as? [String], [])
            XCTAssertNotNil(try JSON.string(chat, "createdAt").wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/))
            let sender = try XCTUnwrap(chat["sender"] as? [String: Any])
            JSON.assertKeys(sender, ["user_id", "nick"])
            XCTAssertEqual(sender["user_id"] as? String, H.alice)

            let retry = try await harness.send(client, H.alice, room: room, SendChatRequest(content: "안녕 hello", clientID: "c-1"))
            XCTAssertEqual(retry["chat_id"] as? String, chat["chat_id"] as? String)
            let onlyFiles = try await harness.send(client, H.bob, room: room, SendChatRequest(content: nil, files: ["/data/chats/a.jpg"]))
            XCTAssertEqual(onlyFiles["content"] as? String, "")
            XCTAssertEqual(onlyFiles["files"] as? [String], ["/data/chats/a.jpg"])

            let history = try await client.execute(uri: "/v1/chats/\(room)", method: .get, headers: try await harness.headers(H.bob))
            XCTAssertEqual(try XCTUnwrap(try JSON.object(history.body)["data"] as? [[String: Any]]).count, 2)

            let bad: [SendChatRequest] = [
                SendChatRequest(content: ""), SendChatRequest(content: "  "), SendChatRequest(content: nil),
                SendChatRequest(content: "x", files: ["/etc/passwd"]), SendChatRequest(content: "x", files: ["/data/chats/../x"]),
                SendChatRequest(content: "x", files: Array(repeating: "/data/chats/a.jpg", count: 6)),
                SendChatRequest(content: String(repeating: "a", count: 5001)), SendChatRequest(content: "x", clientID: ""),
            ]
            for body in bad {
                let response = try await client.execute(
                    uri: "/v1/chats/\(room)", method: .post, headers: try await harness.headers(H.alice), body: JSONCoding.encode(body))
                XCTAssertEqual(response.status, .badRequest, "\(body)")
            }
            for (uri, method) in [("/v1/chats/\(room)", HTTPRequest.Method.get), ("/v1/chats/\(room)/search?q=hello", .get)] {
                let outsider = try await client.execute(uri: uri, method: method, headers: try await harness.headers(H.carol))
                XCTAssertEqual(outsider.status.code, 445, uri)
            }
            let outsiderSend = try await client.execute(
                uri: "/v1/chats/\(room)", method: .post, headers: try await harness.headers(H.carol),
                body: JSONCoding.encode(SendChatRequest(content: "hi")))
            XCTAssertEqual(outsiderSend.status.code, 445)
            let otherApp = try await client.execute(
                uri: "/v1/chats/\(room)", method: .get, headers: try await harness.headers(H.alice, app: H.openApp))
            XCTAssertEqual(otherApp.status, .notFound)
            let unknown = try await client.execute(
                uri: "/v1/chats/6740369b3a36e82f532ec7ff", method: .get, headers: try await harness.headers(H.alice))
            XCTAssertEqual(unknown.status, .notFound)

            // The push event: recipients without the sender; nobody present (no sockets).
            let events = try await harness.push.events(count: 2)
            XCTAssertEqual(events[0].recipients, [H.bob])
            XCTAssertEqual(events[0].present, [])
            XCTAssertEqual(events[0].content, "안녕 hello")
            XCTAssertEqual(events[0].senderNick, "nick-c721")
            XCTAssertEqual(events[1].recipients, [H.alice])
        }
    }

    func testHistoryCursorEdgeCases() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let room = try await harness.room(client, H.alice, with: H.bob)
            var sent: [[String: Any]] = []
            for index in 0..<5 { sent.append(try await harness.send(client, H.alice, room: room, SendChatRequest(content: "m\(index)"))) }
            let dates = try sent.map { try JSON.string($0, "createdAt") }
            XCTAssertEqual(Set(dates).count, 5, "each message has its own millisecond in a room")
            XCTAssertEqual(dates, dates.sorted())

            func contents(_ query: String) async throws -> [String] {
                let response = try await client.execute(uri: "/v1/chats/\(room)\(query)", method: .get, headers: try await harness.headers(H.bob))
                XCTAssertEqual(response.status, .ok, query)
                return try XCTUnwrap(try JSON.object(response.body)["data"] as? [[String: Any]]).compactMap { $0["content"] as? String }
            }
            let all = ["m0", "m1", "m2", "m3", "m4"]
            for query in ["", "?cursor_date=", "?cursor_date", "?room_id=\(room)"] {
                let actual2 = try await contents(query); XCTAssertEqual(actual2, all, query)
            }
            let actual3 = try await contents("?cursor_date=\(dates[1])")
            XCTAssertEqual(actual3, ["m2", "m3", "m4"])
            let actual4 = try await contents("?cursor_date=\(dates[4])")
            XCTAssertEqual(actual4, [])
            let actual5 = try await contents("?cursor_date=\(dates[0])&limit=2")
            XCTAssertEqual(actual5, ["m1", "m2"])
            for bad in ["?cursor_date=yesterday", "?limit=abc", "?limit=0"] {
                let response = try await client.execute(uri: "/v1/chats/\(room)\(bad)", method: .get, headers: try await harness.headers(H.bob))
                XCTAssertEqual(response.status, .badRequest, bad)
            }
        }
    }

    func testRoomListNewestActivityFirstWithLastChatAndUnreads() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let withBob = try await harness.room(client, H.alice, with: H.bob)
            let withCarol = try await harness.room(client, H.alice, with: H.carol)
            let first = try await harness.send(client, H.bob, room: withBob, SendChatRequest(content: "from bob"))
            _ = try await harness.send(client, H.bob, room: withBob, SendChatRequest(content: "again"))
            _ = try await harness.send(client, H.carol, room: withCarol, SendChatRequest(content: "from carol"))

            let list = try await client.execute(uri: "/v1/chats", method: .get, headers: try await harness.headers(H.alice))
            let rooms = try XCTUnwrap(try JSON.object(list.body)["data"] as? [[String: Any]])
            XCTAssertEqual(rooms.compactMap { $0["room_id"] as? String }, [withCarol, withBob])
            let lastChat = try XCTUnwrap(rooms[0]["lastChat"] as? [String: Any])
            JSON.assertKeys(lastChat, H.chatKeys)
            XCTAssertEqual(lastChat["content"] as? String, "from carol")

            let unreads = try await client.execute(uri: "/v1/chats/unreads", method: .get, headers: try await harness.headers(H.alice))
            let counts = try XCTUnwrap(try JSON.object(unreads.body)["data"] as? [[String: Any]])
            for count in counts { JSON.assertKeys(count, ["room_id", "count"]) }
            XCTAssertEqual(
                Dictionary(uniqueKeysWithValues: counts.map { ($0["room_id"] as! String, $0["count"] as! Int) }), [withBob: 2, withCarol: 1])

            let read = try await client.execute(
                uri: "/v1/chats/\(withBob)/read", method: .put, headers: try await harness.headers(H.alice),
                body: JSONCoding.encode(ReadPointerRequest(chatID: try JSON.string(first, "chat_id"))))
            XCTAssertEqual(read.status, .ok)
            JSON.assertKeys(try JSON.object(read.body), ["unread_count"])
            XCTAssertEqual(try JSON.object(read.body)["unread_count"] as? Int, 1)
            let missing = try await client.execute(
                uri: "/v1/chats/\(withBob)/read", method: .put, headers: try await harness.headers(H.alice),
                body: JSONCoding.encode(ReadPointerRequest(chatID: "6740369b3a36e82f532ec7ff")))
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    func testKoreanFullTextSearch() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let room = try await harness.room(client, H.alice, with: H.bob)
            for text in ["오늘 산책 가실래요?", "강아지 사진 보내드릴게요", "Hello Glint", "100% 확실해요"] {
                _ = try await harness.send(client, H.alice, room: room, SendChatRequest(content: text))
            }
            let other = try await harness.room(client, H.carol, with: H.bob)
            _ = try await harness.send(client, H.carol, room: other, SendChatRequest(content: "산책 산책"))

            func search(_ query: String) async throws -> [String] {
                let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let response = try await client.execute(
                    uri: "/v1/chats/\(room)/search?q=\(encoded)", method: .get, headers: try await harness.headers(H.bob))
                XCTAssertEqual(response.status, .ok, query)
                let data = try XCTUnwrap(try JSON.object(response.body)["data"] as? [[String: Any]])
                for chat in data { JSON.assertKeys(chat, H.chatKeys) }
                return data.compactMap { $0["content"] as? String }
            }
            let actual6 = try await search("산책")
            XCTAssertEqual(actual6, ["오늘 산책 가실래요?"])  // two syllables, inside a sentence
            let actual7 = try await search("보내드릴")
            XCTAssertEqual(actual7, ["강아지 사진 보내드릴게요"])  // inside a word
            let actual8 = try await search("glint")
            XCTAssertEqual(actual8, ["Hello Glint"])
            let actual9 = try await search("100%")
            XCTAssertEqual(actual9, ["100% 확실해요"])
            let actual10 = try await search("없는말")
            XCTAssertEqual(actual10, [])
            for bad in ["", String(repeating: "가", count: 101)] {
                let response = try await client.execute(
                    uri: "/v1/chats/\(room)/search?q=\(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                    method: .get, headers: try await harness.headers(H.bob))
                XCTAssertEqual(response.status, .badRequest)
            }
        }
    }

    func testFileUploadLimits() async throws {
        let harness = try await H.make()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)
        try await harness.app.contractTest { client in
            let room = try await harness.room(client, H.alice, with: H.bob)
            func upload(_ parts: [MultipartBody.Part], as user: String = H.alice) async throws -> TestResponse {
                let body = MultipartBody(parts: parts)
                var headers = try await harness.headers(user, json: false)
                headers[.contentType] = body.contentType
                return try await client.execute(uri: "/v1/chats/\(room)/files", method: .post, headers: headers, body: body.buffer)
            }
            let file = { (name: String, bytes: [UInt8]) in MultipartBody.Part.file("files", filename: name, contentType: "image/png", bytes: bytes) }

            let five = try await upload((0..<5).map { _ in file("same.png", png) } + [file("empty.png", [])])
            XCTAssertEqual(five.status, .ok, String(buffer: five.body))
            JSON.assertKeys(try JSON.object(five.body), ["files"])
            let paths = try XCTUnwrap(try JSON.object(five.body)["files"] as? [String])
            XCTAssertEqual(paths.count, 5, "the 0-byte part is ignored")
            XCTAssertTrue(paths.allSatisfy { $0.hasPrefix("/data/chats/") && $0.hasSuffix(".png") })
            XCTAssertEqual(Set(paths).count, 5)

            let served = try await client.execute(uri: "/v1" + paths[0], method: .get, headers: TestEnvironment.fields(app: H.appID))
            XCTAssertEqual(served.status, .ok)
            XCTAssertEqual(Array(served.body.readableBytesView), png)
            let sent = try await harness.send(client, H.alice, room: room, SendChatRequest(content: "", files: paths))
            XCTAssertEqual(sent["files"] as? [String], paths)

            let actual11 = try await upload((0..<6).map { _ in file("a.png", png) }).status
            XCTAssertEqual(actual11, .badRequest)
            let actual12 = try await upload([file("big.png", png + Array(repeating: 0, count: 5 << 20))]).status
            XCTAssertEqual(actual12, .contentTooLarge)
            let actual13 = try await upload([file("fake.png", Array("not an image".utf8))]).status
            XCTAssertEqual(actual13, .badRequest)
            // API.md §0: only 0-byte parts (nothing picked) upload nothing, successfully.
            let onlyEmpty = try await upload([file("only-empty.png", [])])
            XCTAssertEqual(onlyEmpty.status, .ok)
            XCTAssertEqual(try JSON.object(onlyEmpty.body) as? [String: [String]], ["files": []])
            let actual15 = try await upload([file("a.png", png)], as: H.carol).status.code
            XCTAssertEqual(actual15, 445)
        }
    }
}
