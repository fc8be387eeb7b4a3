import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// §8 sockets against a live chat-svc: `/ws-channel-{id}` (event `channel`) and `/ws-dm-{id}`
/// (event `dm`), opened as the app opens them (no key, no token), and what is refused.
final class WorkspaceRealtimeTests: XCTestCase {
    typealias H = ChatHarness
    typealias W = WorkspaceFixtures

    /// What the gateway forwards for a socket the app opened with no headers: the secret only.
    private static let bare = TestEnvironment.internalHeaders(appID: nil)

    func testRESTMessagesReachEveryChannelAndDMSocketOverBothTransports() async throws {
        let harness = try await H.make()
        try await harness.app.test(.live) { client in
            let base = "http://127.0.0.1:\(try XCTUnwrap(client.port))"
            let api = WorkspaceTestClient(client: client, harness: harness)
            let (id, general, room) = try await api.aliceAndBob()

            let channelSockets = [
                try await SocketIOTestClient.open(base, transport: .pollingThenUpgrade, namespace: "/ws-channel-\(general)", headers: Self.bare),
                try await SocketIOTestClient.open(base, transport: .websocket, namespace: "/ws-channel-\(general)", headers: Self.bare),
                try await SocketIOTestClient.open(
                    base, transport: .websocket, namespace: "/ws-channel-\(general)",
                    headers: TestEnvironment.internalHeaders(appID: H.openApp), auth: ["token": try await harness.token(H.alice, app: H.openApp)]),
            ]
            let dmSockets = [
                try await SocketIOTestClient.open(base, transport: .pollingThenUpgrade, namespace: "/ws-dm-\(room)", headers: Self.bare),
                try await SocketIOTestClient.open(base, transport: .websocket, namespace: "/ws-dm-\(room)", headers: Self.bare),
            ]
            defer { (channelSockets + dmSockets).forEach { $0.close() } }
            for socket in channelSockets + dmSockets {
                let answer = try await socket.next()
                XCTAssertEqual(answer.type, 0, "\(answer)")
            }

            let chat = try await api.object(
                .post, "/v1/workspaces/\(id)/channels/\(general)/chats", as: H.alice, multipart: W.messageForm("실시간", files: 1))
            for socket in channelSockets {
                let arguments = try await socket.nextEvent("channel")
                let event = try XCTUnwrap(arguments.first as? [String: Any])
                JSON.assertKeys(event, W.channelChatKeys)
                XCTAssertEqual(event["chat_id"] as? String, chat["chat_id"] as? String)
                XCTAssertEqual(event["files"] as? [String], chat["files"] as? [String])
                XCTAssertEqual((event["user"] as? [String: Any])?["user_id"] as? String, H.alice, "the sender's own socket gets it too")
            }
            let dm = try await api.object(.post, "/v1/workspaces/\(id)/dms/\(room)/chats", as: H.bob, json: ContentRequest(content: "귓속말"))
            for socket in dmSockets {
                let arguments = try await socket.nextEvent("dm")
                let event = try XCTUnwrap(arguments.first as? [String: Any])
                JSON.assertKeys(event, W.dmChatKeys)
                XCTAssertEqual(event["dm_id"] as? String, dm["dm_id"] as? String)
                XCTAssertEqual(event["content"] as? String, "귓속말")
            }
        }
    }

    func testNamespacesOfMissingRoomsOtherKindsAndOutsidersAreRefused() async throws {
        let harness = try await H.make()
        try await harness.app.test(.live) { client in
            let base = "http://127.0.0.1:\(try XCTUnwrap(client.port))"
            let api = WorkspaceTestClient(client: client, harness: harness)
            let (_, general, room) = try await api.aliceAndBob()
            var strict = WorkspaceTestClient(client: client, harness: harness)
            strict.app = H.appID
            let strictID = try JSON.string(try await strict.createWorkspace("플래그 없음", as: H.alice), "workspace_id")
            let strictGeneral = try await strict.defaultChannel(of: strictID, as: H.alice)
            let carol = TestEnvironment.internalHeaders(appID: H.openApp) + [("Authorization", try await harness.token(H.carol, app: H.openApp))]

            let refused: [(String, String, [(String, String)])] = [
                ("no such channel", "/ws-channel-6740369b3a36e82f532ec7ff", Self.bare),
                ("no such DM room", "/ws-dm-6740369b3a36e82f532ec7ff", Self.bare),
                ("a DM room as a channel", "/ws-channel-\(room)", Self.bare),
                ("a channel as a DM room", "/ws-dm-\(general)", Self.bare),
                ("a channel as a 1:1 room", "/chats-\(general)", Self.bare),
                ("an outsider's token", "/ws-channel-\(general)", carol),
                ("an app without socket_auth_optional", "/ws-channel-\(strictGeneral)", Self.bare),
            ]
            for (label, namespace, headers) in refused {
                let socket = try await SocketIOTestClient.open(base, transport: .websocket, namespace: namespace, headers: headers)
                let answer = try await socket.next()
                XCTAssertEqual(answer.type, 4, label)
                socket.close()
            }
        }
    }
}
