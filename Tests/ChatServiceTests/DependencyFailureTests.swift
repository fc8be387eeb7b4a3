import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// chat-svc with push-svc down (its `failing` client).
final class DependencyFailureTests: XCTestCase {
    func testMessagesAreSentAndReadWhilePushIsDown() async throws {
        let harness = try await ChatHarness.make(pushClient: .failing(.push))
        try await harness.app.test(.router) { client in
            let room = try await harness.room(client, ChatHarness.alice, with: ChatHarness.bob)
            let sent = try await harness.send(client, ChatHarness.alice, room: room, SendChatRequest(content: "still here"))
            let history = try await client.execute(uri: "/v1/chats/\(room)", method: .get, headers: try await harness.headers(ChatHarness.bob))
            XCTAssertEqual(history.status, .ok)
            let chats = try XCTUnwrap(try JSON.object(history.body)["data"] as? [[String: Any]])
            XCTAssertEqual(chats.map { $0["chat_id"] as? String }, [sent["chat_id"] as? String], "the message does not wait for push-svc")
        }
    }
}
