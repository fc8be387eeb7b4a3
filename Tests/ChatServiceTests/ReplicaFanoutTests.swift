import Contracts
import HummingbirdTesting
import PostgresNIO
import PostgresStorage
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// Two chat-svc replicas on one PostgreSQL database: sockets on one receive what the other stores
/// (`LiveFrameListener`), and a frame whose notification was lost is caught up after the
/// listener's connection comes back. Needs the run's PostgreSQL whichever engine the run uses.
final class ReplicaFanoutTests: XCTestCase {
    typealias H = ChatHarness

    func testSocketsOnOneReplicaReceiveWhatTheOtherStoresAndCatchUpAfterAReconnect() async throws {
        let shared = try await TestPostgres.freshDatabase()
        try await shared.database.migrate(ChatPostgresMigrations.all)
        let a = try await H.make(engine: .postgres(shared.database))
        let b = try await H.make(engine: .postgres(try PostgresPool(url: shared.url, logger: TestEnvironment.logger)))
        try await a.app.test(.live) { replicaA in
            try await b.app.test(.router) { replicaB in
                let base = "http://127.0.0.1:\(try XCTUnwrap(replicaA.port))"
                let room = try await b.room(replicaB, H.alice, with: H.bob)
                var sockets: [SocketIOTestClient] = []
                for transport in [SocketIOTestClient.Transport.websocket, .pollingThenUpgrade] {
                    let socket = try await SocketIOTestClient.open(
                        base, transport: transport, namespace: "/chats-\(room)",
                        headers: TestEnvironment.internalHeaders(appID: H.appID), auth: ["token": try await a.token(H.alice)]
                    )
                    let connected = try await socket.next()
                    XCTAssertEqual(connected.type, 0)
                    sockets.append(socket)
                }
                defer { sockets.forEach { $0.close() } }
                var sent: [String] = []
                for n in 0..<20 {
                    sent.append(try JSON.string(try await b.send(replicaB, H.bob, room: room, SendChatRequest(content: "다른 복제본 \(n)")), "chat_id"))
                }
                for socket in sockets {
                    var received: [String] = []
                    for _ in sent {
                        let event = try await socket.nextEvent("chat")
                        let chat = try XCTUnwrap(event.first as? [String: Any])
                        JSON.assertKeys(chat, H.chatKeys)
                        received.append(try JSON.string(chat, "chat_id"))
                    }
                    XCTAssertEqual(received, sent, "every message, once, in order")
                }

                // A frame stored while its notification never came (a listener away), then every
                // connection to the database cut: replica A's listener reconnects and catches up.
                let lost = "{\"chat_id\":\"lost\",\"content\":\"놓친 알림\"}"
                try await shared.database.client.query(
                    """
                    INSERT INTO live_frame (seq, origin, room_id, event, json) VALUES (1000000000, 'elsewhere', \(room), 'chat', \(lost))
                    """, logger: TestEnvironment.logger)
                let terminator = try PostgresPool(url: shared.url, logger: TestEnvironment.logger, maximumConnections: 1)
                defer { terminator.close() }
                try await terminator.client.query(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                    """, logger: TestEnvironment.logger)
                for socket in sockets {
                    let event = try await socket.nextEvent("chat", within: .seconds(20))
                    let caught = try XCTUnwrap(event.first as? [String: Any])
                    XCTAssertEqual(caught["content"] as? String, "놓친 알림", "the catch-up re-sends none of the 20 already delivered")
                }
                // And live again: B's pool may need a moment of its own to notice its connections are gone.
                var after: String?
                for _ in 0..<20 where after == nil {
                    let response = try await replicaB.execute(
                        uri: "/v1/chats/\(room)", method: .post, headers: try await b.headers(H.bob),
                        body: JSONCoding.encode(SendChatRequest(content: "다시 연결됨", clientID: "after-reconnect"))
                    )
                    if response.status == .ok { after = try JSON.string(try JSON.object(response.body), "chat_id") }
                }
                for socket in sockets {
                    let event = try await socket.nextEvent("chat")
                    let chat = try XCTUnwrap(event.first as? [String: Any])
                    XCTAssertEqual(chat["chat_id"] as? String, try XCTUnwrap(after))
                }
            }
        }
    }

    /// push-svc leaves out a recipient with a socket on the room, whichever replica the socket is
    /// on (`PresenceBoard`); once it closes, the recipient gets pushes again.
    func testASocketOnAnotherReplicaCountsAsPresentForPushes() async throws {
        let shared = try await TestPostgres.freshDatabase()
        try await shared.database.migrate(ChatPostgresMigrations.all)
        // Either replica's relay may deliver an event: one recorder for both.
        let push = EventRecorder<ChatMessageEvent>()
        let a = try await H.make(pushClient: push.batchClient, engine: .postgres(shared.database))
        let b = try await H.make(pushClient: push.batchClient, engine: .postgres(try PostgresPool(url: shared.url, logger: TestEnvironment.logger)))
        @Sendable func present(in room: String) async throws -> [String] {
            try await shared.database.read { connection in
                try await connection.values(String.self, "SELECT user_id FROM presence WHERE room_id = \(room)", logger: TestEnvironment.logger)
            }
        }
        try await a.app.test(.live) { replicaA in
            try await b.app.test(.router) { replicaB in
                let room = try await b.room(replicaB, H.alice, with: H.bob)
                let socket = try await SocketIOTestClient.open(
                    "http://127.0.0.1:\(try XCTUnwrap(replicaA.port))", transport: .websocket, namespace: "/chats-\(room)",
                    headers: TestEnvironment.internalHeaders(appID: H.appID), auth: ["token": try await a.token(H.bob)]
                )
                let connected = try await socket.next()
                XCTAssertEqual(connected.type, 0)
                let written = await HTTPProbe.eventually(within: .seconds(10)) { (try? await present(in: room)) == [H.bob] ? true : nil }
                XCTAssertNotNil(written, "replica A writes bob's presence")
                _ = try await b.send(replicaB, H.alice, room: room, SendChatRequest(content: "보고 있어?"))
                let seen = try await push.events(count: 1)[0]
                XCTAssertEqual(seen.recipients, [H.bob])
                XCTAssertEqual(seen.present, [H.bob], "bob's socket is on replica A: no push")

                // The app closes its connection.
                socket.close()
                let gone = await HTTPProbe.eventually(within: .seconds(10)) { (try? await present(in: room))?.isEmpty == true ? true : nil }
                XCTAssertNotNil(gone, "and removed when it closes (at once, not at the ping timeout)")
                _ = try await b.send(replicaB, H.alice, room: room, SendChatRequest(content: "갔구나"))
                let away = try await push.events(count: 2)[1]
                XCTAssertEqual(away.present, [], "bob is pushed again")
            }
        }
    }
}
