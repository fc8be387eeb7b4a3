import Contracts
import GRDB
import SQLiteStorage
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// The search partition of a room: the key SQL indexes each message under is the key a search
/// asks for, and a search finds the phrase in its room only, however many rooms have it.
final class SearchPartitionTests: XCTestCase {
    func testTheIndexedKeyIsTheSearchedKeyAndSearchesStayInTheirRoom() async throws {
        let common = TestEnvironment.common(.chat, dataDirectory: try TestEnvironment.temporaryDirectory())
        let database = try DatabaseFactory.openPool(at: common.databasePath, migrator: ChatMigrations.migrator)
        let lookups = try SQLiteLookups(beside: database)
        let rooms = SQLiteRoomStore(database: database, lookups: lookups), messages = SQLiteMessageStore(database: database, lookups: lookups)
        let alice = "6740369b3a36e82f532ec721"
        var roomIDs: [String] = []
        for n in 0..<20 {
            let room = try await rooms.open(appID: "app", userID: alice, opponentID: String(format: "6740369b3a36e82f532e%04x", n), at: 1)
            roomIDs.append(room.id)
            for text in ["오늘 같이 산책 갈까요", "내일은 비가 온대요"] {
                _ = try await messages.send(
                    NewChat(roomID: room.id, senderID: alice, content: text, files: [], clientID: nil), appID: "app", at: 2, live: nil
                ) { chat, _, _ in
                    ChatMessageEvent(
                        appID: "app", roomID: room.id, chatID: chat.id, senderID: alice, senderNick: "", content: text, files: [],
                        recipients: [], present: [], createdAt: "")
                }
            }
        }
        let indexed = try await database.read { db -> [(room: String, key: String)] in
            try Row.fetchAll(db, sql: "SELECT room_id, fts_room FROM chat").map { (room: $0["room_id"], key: $0["fts_room"]) }
        }
        XCTAssertEqual(indexed.count, 40)
        for row in indexed {
            XCTAssertEqual(row.key, SearchPartition.key(ofRoom: row.room), row.room)
            XCTAssertEqual(row.key.unicodeScalars.count, 3)
        }
        XCTAssertEqual(Set(indexed.map(\.key)).count, 20, "a key per room")
        for roomID in roomIDs.prefix(3) {
            let found = try await messages.search(roomID: roomID, query: "산책 갈", limit: 100)
            XCTAssertEqual(found.map(\.roomID), [roomID], "one message, of this room")
        }
    }
}
