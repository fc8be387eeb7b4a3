import Contracts
import GRDB
import SQLiteStorage
import ServiceKit

extension ChannelRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "channel"

    enum Columns {
        static let workspaceID = Column(CodingKeys.workspaceID)
        static let createdAt = Column(CodingKeys.createdAt)
    }
}

/// `ChannelStore` on chat-svc's SQLite file: channels and DM rooms are rows of `room` (messages,
/// participants and sockets work the same for every room) with their workspace beside them.
struct SQLiteChannelStore: ChannelStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    /// The channel's room, the channel and its owner as its first member (also used when a workspace is made).
    static func insert(_ db: Database, _ channel: ChannelRecord, appID: String) throws {
        try RoomRecord(
            id: channel.roomID, appID: appID, pairKey: "channel:" + channel.roomID, createdAt: channel.createdAt, updatedAt: channel.createdAt,
            lastChatSeq: nil, kind: .channel, workspaceID: channel.workspaceID
        ).insert(db)
        try channelNameUnique { try channel.insert(db) }
        try ParticipantRecord(roomID: channel.roomID, userID: channel.ownerID, appID: appID, readAt: 0).insert(db)
    }

    func create(_ channel: ChannelRecord, appID: String) async throws {
        try await database.write { db in try Self.insert(db, channel, appID: appID) }
    }

    func channels(of workspaceID: String) async throws -> [ChannelRecord] {
        try await database.read { db in
            try ChannelRecord.filter(ChannelRecord.Columns.workspaceID == workspaceID).order(ChannelRecord.Columns.createdAt, Column("room_id"))
                .fetchAll(db)
        }
    }

    func channels(of workspaceID: String, participant userID: String) async throws -> [ChannelRecord] {
        try await database.read { db in
            try ChannelRecord.fetchAll(
                db,
                sql: """
                    SELECT channel.* FROM channel JOIN participant ON participant.room_id = channel.room_id AND participant.user_id = ?
                    WHERE channel.workspace_id = ? ORDER BY channel.created_at, channel.room_id
                    """, arguments: [userID, workspaceID])
        }
    }

    func channel(_ id: String, workspace workspaceID: String) async throws -> ChannelRecord {
        let found = try lookups.readNow { db in
            try ChannelRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM channel WHERE room_id = ? AND workspace_id = ?"), arguments: [id, workspaceID])
        }
        guard let found else { throw StoreError.notFound("channel not found") }
        return found
    }

    func unreads(
        channel id: String, workspace workspaceID: String, member userID: String, appID: String, after: Int64?
    ) async throws -> (channel: ChannelRecord, count: Int) {
        let found = try await database.read { db -> (ChannelRecord, Int)? in
            guard
                let channel = try ChannelRecord.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT channel.* FROM channel
                            JOIN workspace ON workspace.id = channel.workspace_id AND workspace.app_id = ? AND workspace.state = 'active'
                            JOIN workspace_member ON workspace_member.workspace_id = channel.workspace_id AND workspace_member.user_id = ?
                            WHERE channel.room_id = ? AND channel.workspace_id = ?
                            """), arguments: [appID, userID, id, workspaceID])
            else { return nil }
            return (channel, try Self.count(db, roomID: id, after: after, excluding: [userID]))
        }
        guard let found else { throw StoreError.notFound("channel not found") }
        return found
    }

    func update(_ channel: ChannelRecord) async throws {
        try await database.write { db in try Self.channelNameUnique { try channel.update(db) } }
    }

    func delete(_ channelID: String) async throws {
        // The channel row and the messages go with the room.
        _ = try await database.write { db in try RoomRecord.deleteOne(db, key: channelID) }
    }

    func members(of channelID: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT user_id FROM participant WHERE room_id = ? ORDER BY rowid", arguments: [channelID])
        }
    }

    func join(_ channelID: String, userID: String, appID: String) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO participant (room_id, user_id, app_id, read_at) VALUES (?, ?, ?, 0)",
                arguments: [channelID, userID, appID])
        }
    }

    func leave(_ channelID: String, userID: String) async throws {
        _ = try await database.write { db in try ParticipantRecord.deleteOne(db, key: ["room_id": channelID, "user_id": userID]) }
    }

    func openDM(workspaceID: String, appID: String, userID: String, opponentID: String, at time: Int64) async throws -> RoomRecord {
        let pairKey = "dm:" + workspaceID + ":" + RoomRecord.pairKey(userID, opponentID)
        return try await database.write { db in
            if let room = try RoomRecord.filter(RoomRecord.Columns.appID == appID && RoomRecord.Columns.pairKey == pairKey).fetchOne(db) {
                return room
            }
            let room = RoomRecord(
                id: ObjectID.generate(), appID: appID, pairKey: pairKey, createdAt: time, updatedAt: time, lastChatSeq: nil,
                kind: .dm, workspaceID: workspaceID)
            try room.insert(db)
            for user in [userID, opponentID] {
                try ParticipantRecord(roomID: room.id, userID: user, appID: appID, readAt: 0).insert(db)
            }
            return room
        }
    }

    func dms(workspaceID: String, userID: String) async throws -> [(room: RoomRecord, opponent: String)] {
        try await database.read { db in
            let rooms = try RoomRecord.fetchAll(
                db,
                sql: """
                    SELECT room.* FROM room JOIN participant ON participant.room_id = room.id AND participant.user_id = ?
                    WHERE room.workspace_id = ? AND room.kind = 'dm' ORDER BY room.updated_at DESC, room.id DESC LIMIT 1000
                    """, arguments: [userID, workspaceID])
            return try rooms.map { ($0, try Self.opponent(db, roomID: $0.id, of: userID)) }
        }
    }

    func dm(_ roomID: String, workspace workspaceID: String, participant userID: String) async throws -> (room: RoomRecord, opponent: String) {
        guard ObjectID.isValid(roomID) else { throw StoreError.notFound("room not found") }
        let found = try await database.read { db -> (RoomRecord?, [String]) in
            (
                try RoomRecord.fetchOne(db, key: roomID),
                try String.fetchAll(db, sql: "SELECT user_id FROM participant WHERE room_id = ?", arguments: [roomID])
            )
        }
        return try RoomAccess.dm(found.0, workspaceID: workspaceID, participants: found.1, caller: userID)
    }

    func unreadCount(roomID: String, after: Int64?, excluding excluded: Set<String>) async throws -> Int {
        try await database.read { db in try Self.count(db, roomID: roomID, after: after, excluding: excluded) }
    }

    /// A range scan of the covering index from `after`: the table itself is never read.
    private static func count(_ db: Database, roomID: String, after: Int64?, excluding excluded: Set<String>) throws -> Int {
        let marks = Array(repeating: "?", count: excluded.count).joined(separator: ", ")
        return try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT COUNT(*) FROM chat INDEXED BY chat_by_room_time_sender
                    WHERE room_id = ? AND created_at > ? AND sender_id NOT IN (\(marks))
                    """), arguments: StatementArguments([roomID, after ?? -1] as [any DatabaseValueConvertible] + Array(excluded))) ?? 0
    }

    private static func opponent(_ db: Database, roomID: String, of userID: String) throws -> String {
        try String.fetchOne(db, sql: "SELECT user_id FROM participant WHERE room_id = ? AND user_id != ?", arguments: [roomID, userID]) ?? userID
    }

    /// The (workspace, name) key refusing a write.
    private static func channelNameUnique(_ write: () throws -> Void) throws {
        do {
            try write()
        } catch let error as DatabaseError where error.isUniqueViolation {
            throw StoreError.conflict("the workspace has a channel of that name")
        }
    }
}
