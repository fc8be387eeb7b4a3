import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// Who opens a room, once for both engines.
final class RoomAccessTests: XCTestCase {
    private func room(_ kind: RoomKind, app: String = "app", workspace: String? = nil) -> RoomRecord {
        RoomRecord(id: "r", appID: app, pairKey: "k", createdAt: 1, updatedAt: 1, lastChatSeq: nil, kind: kind, workspaceID: workspace)
    }

    func testAPairRoomOfTheAppOpensToItsParticipants() throws {
        XCTAssertEqual(try RoomAccess.pair(room(.pair), appID: "app", participant: true).id, "r")
        XCTAssertThrowsStoreError(.notPermitted("not a participant of this room"), try RoomAccess.pair(room(.pair), appID: "app", participant: false))
        for other in [nil, room(.pair, app: "other"), room(.channel)] {
            XCTAssertThrowsStoreError(.notFound("room not found"), try RoomAccess.pair(other, appID: "app", participant: true))
        }
    }

    func testADMOpensToItsTwoMembersWithTheOtherAsOpponent() throws {
        let dm = room(.dm, workspace: "w")
        XCTAssertEqual(try RoomAccess.dm(dm, workspaceID: "w", participants: ["a", "b"], caller: "a").opponent, "b")
        XCTAssertEqual(try RoomAccess.dm(dm, workspaceID: "w", participants: ["a"], caller: "a").opponent, "a", "a DM with oneself")
        XCTAssertThrowsStoreError(
            .notPermitted("not a participant of this room"), try RoomAccess.dm(dm, workspaceID: "w", participants: ["a", "b"], caller: "c"))
        XCTAssertThrowsStoreError(.notFound("room not found"), try RoomAccess.dm(dm, workspaceID: "other", participants: ["a"], caller: "a"))
        XCTAssertThrowsStoreError(.notFound("room not found"), try RoomAccess.dm(room(.pair), workspaceID: "w", participants: ["a"], caller: "a"))
    }
}
