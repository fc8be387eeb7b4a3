import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// API.md §8 direct messages, key by key: one room per pair per workspace, participants only,
/// blocks honoured.
final class DirectMessageContractTests: XCTestCase {
    typealias H = ChatHarness
    typealias W = WorkspaceFixtures

    func testOneRoomPerPairParticipantsOnlyAndBlocks() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let api = WorkspaceTestClient(client: client, harness: harness)
            let id = try JSON.string(try await api.createWorkspace("팀", as: H.alice), "workspace_id")
            let dms = "/v1/workspaces/\(id)/dms"
            try await api.expect("E13", .post, dms, as: H.alice, json: OpenRoomRequest(opponentID: H.bob), "the opponent must be a member")
            try await api.invite(H.bob, to: id, as: H.alice)

            let room = try await api.object(.post, dms, as: H.alice, json: OpenRoomRequest(opponentID: H.bob))
            JSON.assertKeys(room, ["room_id", "createdAt", "user"])
            let opponent = try XCTUnwrap(room["user"] as? [String: Any])
            JSON.assertKeys(opponent, W.userKeys)
            XCTAssertEqual(opponent["user_id"] as? String, H.bob, "user is the other person")
            let roomID = try JSON.string(room, "room_id")
            let again = try await api.object(.post, dms, as: H.bob, json: OpenRoomRequest(opponentID: H.alice))
            XCTAssertEqual(again["room_id"] as? String, roomID, "the same room for the same pair, whoever opens it")
            try await api.expect("E11", .post, dms, as: H.alice, json: OpenRoomRequest(opponentID: H.alice), "not with yourself")
            let list = try await api.array(.get, dms, as: H.bob)
            XCTAssertEqual(list.map { $0["room_id"] as? String }, [roomID])
            XCTAssertEqual((list[0]["user"] as? [String: Any])?["user_id"] as? String, H.alice)

            let chats = "\(dms)/\(roomID)/chats"
            let sent = try await api.object(.post, chats, as: H.alice, json: ContentRequest(content: "비밀 이야기"))
            JSON.assertKeys(sent, W.dmChatKeys)
            XCTAssertEqual(sent["room_id"] as? String, roomID)
            let filesOnly = try await api.object(.post, chats, as: H.bob, multipart: W.messageForm(nil, files: 2))
            JSON.assertKeys(filesOnly, W.dmChatKeys.subtracting(["content"]))
            XCTAssertEqual((filesOnly["files"] as? [String])?.count, 2)
            let history = try await api.array(.get, chats + "?cursor_date=", as: H.bob)
            XCTAssertEqual(history.map { $0["dm_id"] as? String }, [sent["dm_id"] as? String, filesOnly["dm_id"] as? String])
            let unreads = try await api.object(.get, "\(dms)/\(roomID)/unreads", as: H.bob)
            JSON.assertKeys(unreads, ["room_id", "count"])
            XCTAssertEqual(unreads["count"] as? Int, 1)

            // A member who is not in the room: E14; an outsider: E13.
            try await api.invite(H.carol, to: id, as: H.alice)
            try await api.expect("E14", .get, chats, as: H.carol)
            try await api.expect("E14", .post, chats, as: H.carol, json: ContentRequest(content: "끼어들기"))
            try await api.expect("E14", .post, chats, as: H.carol, multipart: W.messageForm("파일", files: 1))
            try await api.expect("E14", .get, "\(dms)/\(roomID)/unreads", as: H.carol)
            try await api.expect("E13", .get, "\(dms)/6740369b3a36e82f532ec7ff/chats", as: H.alice)

            // Bob blocks alice: her messages are neither shown nor counted for him, nor pushed.
            harness.blocks.block(H.alice, by: H.bob)
            _ = try await api.object(.post, chats, as: H.alice, json: ContentRequest(content: "차단 후"))
            let bobSees = try await api.array(.get, chats, as: H.bob)
            XCTAssertEqual(bobSees.map { $0["dm_id"] as? String }, [filesOnly["dm_id"] as? String])
            let bobCounts = try await api.object(.get, "\(dms)/\(roomID)/unreads", as: H.bob)
            XCTAssertEqual(bobCounts["count"] as? Int, 0)
            let aliceSees = try await api.array(.get, chats, as: H.alice)
            XCTAssertEqual(aliceSees.count, 3, "the sender still sees her message")
            let events = try await harness.push.events(count: 3)
            XCTAssertEqual(events.map(\.recipients), [[H.bob], [H.alice], []], "the blocked message is pushed to nobody")
        }
    }
}
