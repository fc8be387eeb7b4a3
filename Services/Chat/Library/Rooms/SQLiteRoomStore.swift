import Contracts
import GRDB
import SQLiteStorage
import ServiceKit

extension RoomRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "room"

    enum Columns {
        static let appID = Column(CodingKeys.appID)
        static let pairKey = Column(CodingKeys.pairKey)
        static let kind = Column(CodingKeys.kind)
        static let workspaceID = Column(CodingKeys.workspaceID)
    }
}

extension ParticipantRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "participant"

    enum Columns {
        static let roomID = Column(CodingKeys.roomID)
        static let userID = Column(CodingKeys.userID)
    }
}

/// `RoomStore` on chat-svc's SQLite file.
struct SQLiteRoomStore: RoomStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func open(appID: String, userID: String, opponentID: String, at time: Int64) async throws -> RoomRecord {
        let pairKey = RoomRecord.pairKey(userID, opponentID)
        return try await database.write { db in
            if let room = try RoomRecord.filter(RoomRecord.Columns.appID == appID && RoomRecord.Columns.pairKey == pairKey).fetchOne(db) {
                return room
            }
            let room = RoomRecord(id: ObjectID.generate(), appID: appID, pairKey: pairKey, createdAt: time, updatedAt: time, lastChatSeq: nil)
            try room.insert(db)
            for user in [userID, opponentID] {
                try ParticipantRecord(roomID: room.id, userID: user, appID: appID, readAt: 0).insert(db)
            }
            return room
        }
    }

    func room(_ id: String) async throws -> RoomRecord? {
        guard ObjectID.isValid(id) else { return nil }
        return try lookups.readNow { db in try RoomRecord.fetchOne(db, key: id) }
    }

    func room(_ id: String, participant userID: String, appID: String) async throws -> RoomRecord {
        guard ObjectID.isValid(id) else { throw StoreError.notFound("room not found") }
        let found = try lookups.readNow { db -> (RoomRecord?, Bool) in
            (try RoomRecord.fetchOne(db, key: id), try ParticipantRecord.exists(db, key: ["room_id": id, "user_id": userID]))
        }
        return try RoomAccess.pair(found.0, appID: appID, participant: found.1)
    }

    func isParticipant(roomID: String, userID: String) async throws -> Bool {
        try lookups.readNow { db in try ParticipantRecord.exists(db, key: ["room_id": roomID, "user_id": userID]) }
    }

    func participants(of roomIDs: [String]) async throws -> [String: [String]] {
        try await database.read { db in
            try ParticipantRecord.filter(roomIDs.contains(ParticipantRecord.Columns.roomID)).order(ParticipantRecord.Columns.userID)
                .fetchAll(db)
                .reduce(into: [String: [String]]()) { $0[$1.roomID, default: []].append($1.userID) }
        }
    }

    func rooms(of userID: String, appID: String, limit: Int) async throws -> [RoomRecord] {
        try await database.read { db in
            try RoomRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT room.* FROM participant JOIN room ON room.id = participant.room_id
                        WHERE participant.app_id = ? AND participant.user_id = ? AND room.kind = 'pair'
                        ORDER BY room.updated_at DESC, room.id DESC LIMIT ?
                        """), arguments: [appID, userID, limit])
        }
    }

    func markRead(roomID: String, userID: String, chatID: String) async throws -> Int {
        try await database.write { db in
            guard let chat = try ChatRecord.filter(ChatRecord.Columns.id == chatID && ChatRecord.Columns.roomID == roomID).fetchOne(db) else {
                throw StoreError.notFound("chat not found in this room")
            }
            try db.execute(
                sql: "UPDATE participant SET read_at = MAX(read_at, ?) WHERE room_id = ? AND user_id = ?",
                arguments: [chat.createdAt, roomID, userID]
            )
            return try Self.unread(db, roomID: roomID, userID: userID)
        }
    }

    func unreadCounts(userID: String, appID: String) async throws -> [RoomUnreadCount] {
        try await database.read { db in
            let rooms = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT participant.room_id FROM participant JOIN room ON room.id = participant.room_id
                        WHERE participant.app_id = ? AND participant.user_id = ? AND room.kind = 'pair' ORDER BY room.updated_at DESC LIMIT 1000
                        """), arguments: [appID, userID])
            return try rooms.map { RoomUnreadCount(roomID: $0, count: try Self.unread(db, roomID: $0, userID: userID)) }
        }
    }

    private static func unread(_ db: Database, roomID: String, userID: String) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT COUNT(*) FROM chat WHERE room_id = ? AND sender_id != ?
                    AND created_at > (SELECT read_at FROM participant WHERE room_id = ? AND user_id = ?)
                    """), arguments: [roomID, userID, roomID, userID]) ?? 0
    }
}
