import Contracts
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// The rules of sending a message, once for both engines (each store's send only reads and writes).
final class SendRulesTests: XCTestCase {
    private let roomID = ObjectID.generate(), alice = ObjectID.generate(), bob = ObjectID.generate()

    private func new(_ sender: String, kind: RoomKind = .pair, clientID: String? = nil) -> NewChat {
        NewChat(roomID: roomID, senderID: sender, content: "hi", files: ["/a.jpg"], clientID: clientID, kind: kind)
    }

    private func room(
        kind: RoomKind = .pair, app: String = "app", updatedAt: Int64 = 1_000, member: Bool = false, retried: ChatRecord? = nil
    ) -> SendRules.Room {
        SendRules.Room(
            appID: app, kind: kind.rawValue, updatedAt: updatedAt, participants: [alice], senderIsWorkspaceMember: member, retried: retried)
    }

    func testAMissingRoomOrOneOfAnotherAppOrKindIsNotFound() {
        XCTAssertThrowsStoreError(.notFound("room not found"), try SendRules.decide(new(alice), appID: "app", at: 5_000, room: nil))
        XCTAssertThrowsStoreError(.notFound("room not found"), try SendRules.decide(new(alice), appID: "app", at: 5_000, room: room(app: "other")))
        XCTAssertThrowsStoreError(.notFound("room not found"), try SendRules.decide(new(alice), appID: "app", at: 5_000, room: room(kind: .channel)))
        XCTAssertThrowsError(try SendRules.check(roomID: "not-an-id"))
    }

    func testAParticipantStoresAMessageWithItsFieldsAndEveryParticipant() throws {
        guard case .store(let chat, let joins, let participants) = try SendRules.decide(new(alice), appID: "app", at: 5_000, room: room()) else {
            return XCTFail("a participant's message is stored")
        }
        XCTAssertFalse(joins)
        XCTAssertEqual(participants, [alice])
        XCTAssertEqual(chat.createdAt, 5_000)
        XCTAssertEqual([chat.roomID, chat.senderID, chat.content, chat.files], [roomID, alice, "hi", #"["/a.jpg"]"#])
        XCTAssertTrue(ObjectID.isValid(chat.id))
        XCTAssertNil(chat.seq)
    }

    func testTimesStrictlyIncreaseWithinARoom() throws {
        for time: Int64 in [999, 1_000] {
            guard case .store(let chat, _, _) = try SendRules.decide(new(alice), appID: "app", at: time, room: room(updatedAt: 1_000)) else {
                return XCTFail("stored")
            }
            XCTAssertEqual(chat.createdAt, 1_001, "a clock at or behind the room's last message")
        }
    }

    func testOnlyAWorkspaceMemberJoinsAChannelByWritingInIt() throws {
        guard
            case .store(_, let joins, let participants) = try SendRules.decide(
                new(bob, kind: .channel), appID: "app", at: 5_000, room: room(kind: .channel, member: true)
            )
        else { return XCTFail("a member's message is stored") }
        XCTAssertTrue(joins)
        XCTAssertEqual(participants, [alice, bob])
        XCTAssertThrowsStoreError(
            .notPermitted("not a participant of this room"),
            try SendRules.decide(new(bob, kind: .channel), appID: "app", at: 5_000, room: room(kind: .channel, member: false)))
        // No joining a pair room.
        XCTAssertThrowsStoreError(
            .notPermitted("not a participant of this room"), try SendRules.decide(new(bob), appID: "app", at: 5_000, room: room(member: true)))
    }

    func testARetriedClientIDAnswersTheStoredMessage() throws {
        let stored = ChatRecord(
            seq: 7, id: ObjectID.generate(), roomID: roomID, senderID: alice, content: "first", files: "[]", clientID: "c1", createdAt: 900)
        guard
            case .answerStored(let answered) = try SendRules.decide(new(alice, clientID: "c1"), appID: "app", at: 5_000, room: room(retried: stored))
        else {
            return XCTFail("a retry stores nothing")
        }
        XCTAssertEqual(answered.id, stored.id)
    }
}
