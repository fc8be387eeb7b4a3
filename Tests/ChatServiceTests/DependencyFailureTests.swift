import Contracts
import HummingbirdTesting
import ServiceClients
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// chat-svc with push-svc, auth-svc's member lookups or market-svc down (their `failing` clients).
final class DependencyFailureTests: XCTestCase {
    func testWorkspacesWithoutMemberLookupsOrTheWalletAnswerUnavailableAndCreateNothing() async throws {
        let harness = try await ChatHarness.make(coinsClient: .failing, membersClient: .failing)
        try await harness.app.contractTest { client in
            let api = WorkspaceTestClient(client: client, harness: harness)
            try await api.expect("E99", .post, "/v1/workspaces", as: ChatHarness.alice, multipart: WorkspaceFixtures.workspaceForm("팀"), "no wallet")
            let none = try await api.array(.get, "/v1/workspaces", as: ChatHarness.alice)
            XCTAssertEqual(none.count, 0)
        }
        let free = try await ChatHarness.make(membersClient: .failing, workspaceCost: 0)
        try await free.app.contractTest { client in
            let api = WorkspaceTestClient(client: client, harness: free)
            let id = try JSON.string(try await api.createWorkspace("무료", as: ChatHarness.alice), "workspace_id")
            XCTAssertEqual(free.wallet.spendCalls, 0, "SLP_WORKSPACE_COST=0 asks the wallet nothing")
            try await api.expect("E99", .get, "/v1/workspaces/\(id)", as: ChatHarness.alice, "members cannot be shown without auth-svc")
            let general = try await api.defaultChannel(of: id, as: ChatHarness.alice)
            try await api.expect(
                "E99", .post, "/v1/workspaces/\(id)/channels/\(general)/chats", as: ChatHarness.alice, json: ContentRequest(content: "hi"))
        }
    }

    func testMessagesAreSentAndReadWhilePushIsDown() async throws {
        let harness = try await ChatHarness.make(pushClient: .failing(.push))
        try await harness.app.contractTest { client in
            let room = try await harness.room(client, ChatHarness.alice, with: ChatHarness.bob)
            let sent = try await harness.send(client, ChatHarness.alice, room: room, SendChatRequest(content: "still here"))
            let history = try await client.execute(uri: "/v1/chats/\(room)", method: .get, headers: try await harness.headers(ChatHarness.bob))
            XCTAssertEqual(history.status, .ok)
            let chats = try XCTUnwrap(try JSON.object(history.body)["data"] as? [[String: Any]])
            XCTAssertEqual(chats.map { $0["chat_id"] as? String }, [sent["chat_id"] as? String], "the message does not wait for push-svc")
        }
    }
}
