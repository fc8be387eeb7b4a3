import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// Sockets against a live chat-svc (real TCP), with the independent Swift test client.
final class ChatRealtimeTests: XCTestCase {
    typealias H = ChatHarness

    private static func socketHeaders(_ harness: H, user: String?, app: String? = H.appID) async throws -> [(String, String)] {
        var headers = TestEnvironment.internalHeaders(appID: app)
        if let user { headers.append(("Authorization", try await harness.token(user, app: app ?? H.appID))) }
        return headers
    }

    func testChatEventsReachEveryRoomSocketTheSendersIncludedOverBothTransports() async throws {
        let harness = try await H.make()
        try await harness.app.test(.live) { client in
            let base = "http://127.0.0.1:\(try XCTUnwrap(client.port))"
            let room = try await harness.room(client, H.alice, with: H.bob)
            let alice = try await SocketIOTestClient.open(
                base, transport: .websocket, namespace: "/chats-\(room)",
                headers: try await Self.socketHeaders(harness, user: H.alice))
            let bob = try await SocketIOTestClient.open(
                base, transport: .pollingThenUpgrade, namespace: "/chats-\(room)",
                headers: TestEnvironment.internalHeaders(appID: H.appID), auth: ["token": try await harness.token(H.bob)])
            defer { alice.close(); bob.close() }
            for socket in [alice, bob] {
                let answer = try await socket.next()
                XCTAssertEqual(answer.type, 0, "\(answer)")
                XCTAssertNotNil(answer.object?["sid"] as? String)
            }
            // A client-emitted chat is never rebroadcast: the first `chat` each socket sees is the POSTed one.
            try alice.emit("chat", [["content": "spoofed"]])
            try alice.emit("send_message", [["content": "spoofed"]])
            let sent = try await harness.send(client, H.bob, room: room, SendChatRequest(content: "실시간 안녕"))
            for socket in [alice, bob] {
                let hoisted1 = try await socket.nextEvent("chat").first as? [String: Any]
                let chat = try XCTUnwrap(hoisted1)
                JSON.assertKeys(chat, H.chatKeys)
                XCTAssertEqual(chat["chat_id"] as? String, sent["chat_id"] as? String)
                XCTAssertEqual(chat["content"] as? String, "실시간 안녕")
                XCTAssertEqual(chat["createdAt"] as? String, sent["createdAt"] as? String)
            }
            let event = try await harness.push.events(count: 1)[0]
            XCTAssertEqual(event.present, [H.alice], "alice's socket was on the room")
            XCTAssertEqual(event.recipients, [H.alice])
        }
    }

    func testOutsidersAndUnauthenticatedSocketsAreRefused() async throws {
        let harness = try await H.make()
        try await harness.app.test(.live) { client in
            let base = "http://127.0.0.1:\(try XCTUnwrap(client.port))"
            let room = try await harness.room(client, H.alice, with: H.bob)
            let attempts: [(String, [(String, String)], [String: String]?)] = [
                ("outsider", try await Self.socketHeaders(harness, user: H.carol), nil),
                ("no token, app without the flag", try await Self.socketHeaders(harness, user: nil), nil),
                ("no key, no token", TestEnvironment.internalHeaders(appID: nil), nil),
                ("bad token", TestEnvironment.internalHeaders(appID: H.appID), ["token": "not-a-token"]),
                ("another app's token", try await Self.socketHeaders(harness, user: H.alice, app: H.openApp), nil),
            ]
            for (label, headers, auth) in attempts {
                let socket = try await SocketIOTestClient.open(base, transport: .websocket, namespace: "/chats-\(room)", headers: headers, auth: auth)
                let answer = try await socket.next()
                XCTAssertEqual(answer.type, 4, label)
                XCTAssertNotNil(answer.object?["message"] as? String, label)
                socket.close()
            }
            let unknownRoom = try await SocketIOTestClient.open(
                base, transport: .websocket, namespace: "/chats-6740369b3a36e82f532ec7ff",
                headers: try await Self.socketHeaders(harness, user: H.alice))
            let hoisted2 = try await unknownRoom.next().type
            XCTAssertEqual(hoisted2, 4)
            let otherNamespace = try await SocketIOTestClient.open(
                base, transport: .websocket, namespace: "/admin",
                headers: try await Self.socketHeaders(harness, user: H.alice))
            let hoisted3 = try await otherNamespace.next().json
            XCTAssertEqual(hoisted3, #"{"message":"Invalid namespace"}"#)
            unknownRoom.close()
            otherNamespace.close()
        }
    }

    func testReceiveOnlySocketsForAppsWithTheFlag() async throws {
        let harness = try await H.make()
        try await harness.app.test(.live) { client in
            let base = "http://127.0.0.1:\(try XCTUnwrap(client.port))"
            let room = try await harness.room(client, H.alice, with: H.bob, app: H.openApp)
            // SpotChat-style: no headers at all; the room's app decides.
            let bare = try await SocketIOTestClient.open(
                base, transport: .websocket, namespace: "/chats-\(room)", headers: TestEnvironment.internalHeaders(appID: nil))
            let keyed = try await SocketIOTestClient.open(
                base, transport: .pollingThenUpgrade, namespace: "/chats-\(room)",
                headers: TestEnvironment.internalHeaders(appID: H.openApp))
            defer { bare.close(); keyed.close() }
            let hoisted4 = try await bare.next().type
            XCTAssertEqual(hoisted4, 0)
            let hoisted5 = try await keyed.next().type
            XCTAssertEqual(hoisted5, 0)
            let response = try await client.execute(
                uri: "/v1/chats/\(room)", method: .post, headers: try await harness.headers(H.alice, app: H.openApp),
                body: JSONCoding.encode(SendChatRequest(content: "to everyone listening")))
            XCTAssertEqual(response.status, .ok)
            for socket in [bare, keyed] {
                let hoisted6 = try await socket.nextEvent("chat").first as? [String: Any]
                let chat = try XCTUnwrap(hoisted6)
                XCTAssertEqual(chat["content"] as? String, "to everyone listening")
            }
            // The key of an app with the flag does not open another app's rooms.
            let appRoom = try await harness.room(client, H.alice, with: H.carol)
            let crossing = try await SocketIOTestClient.open(
                base, transport: .websocket, namespace: "/chats-\(appRoom)",
                headers: TestEnvironment.internalHeaders(appID: H.openApp))
            let hoisted7 = try await crossing.next().type
            XCTAssertEqual(hoisted7, 4)
            crossing.close()
        }
    }

    func testJoinRoomLeaveRoomAndCustomPing() async throws {
        let harness = try await H.make()
        try await harness.app.test(.live) { client in
            let base = "http://127.0.0.1:\(try XCTUnwrap(client.port))"
            let withBob = try await harness.room(client, H.alice, with: H.bob)
            let notHers = try await harness.room(client, H.carol, with: H.bob)
            let alice = try await SocketIOTestClient.open(
                base, transport: .websocket, namespace: "/", headers: try await Self.socketHeaders(harness, user: H.alice))
            defer { alice.close() }
            let hoisted8 = try await alice.next().type
            XCTAssertEqual(hoisted8, 0)

            try alice.emit("ping")
            _ = try await alice.nextEvent("pong")
            try alice.emit("join_room", [["roomId": withBob]])
            let hoisted9 = (try await alice.nextEvent("joined_room").first as? [String: Any])?["roomId"] as? String
            XCTAssertEqual(hoisted9, withBob)
            try alice.emit("join_room", [["roomId": notHers]])
            let hoisted10 = (try await alice.nextEvent("join_room_error").first as? [String: Any])?["roomId"] as? String
            XCTAssertEqual(hoisted10, notHers)

            _ = try await harness.send(client, H.bob, room: withBob, SendChatRequest(content: "joined from /"))
            let hoisted11 = (try await alice.nextEvent("chat").first as? [String: Any])?["content"] as? String
            XCTAssertEqual(hoisted11, "joined from /")

            try alice.emit("leave_room", [["roomId": withBob]])
            _ = try await alice.nextEvent("left_room")
            _ = try await harness.send(client, H.bob, room: withBob, SendChatRequest(content: "not for alice"))
            try alice.emit("ping")
            _ = try await alice.nextEvent("pong")
            XCTAssertFalse(alice.packets.contains { ($0.event?.arguments.first as? [String: Any])?["content"] as? String == "not for alice" })
        }
    }

    func testSocketsOnlyOpenWithTheInternalSecret() async throws {
        let harness = try await H.make()
        try await harness.app.test(.live) { client in
            let base = "http://127.0.0.1:\(try XCTUnwrap(client.port))"
            let polling = try await HTTPProbe.call(.GET, base + "/socket.io/?EIO=4&transport=polling")
            XCTAssertEqual(polling.status, 403)
            do {
                let socket = try await SocketIOTestClient.open(base, transport: .websocket, namespace: "/")
                socket.close()
                XCTFail("a WebSocket without the internal secret was accepted")
            } catch {}
        }
    }
}
