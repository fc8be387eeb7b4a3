import Contracts
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `ChannelStore` on PostgreSQL: channels and DM rooms are rows of `room`, as on SQLite.
struct PostgresChannelStore: ChannelStore {
    let pool: PostgresPool

    /// The channel's room, the channel and its owner as its first member (also used when a workspace is made).
    static func insert(_ connection: PostgresConnection, _ channel: ChannelRecord, appID: String, logger: Logger) async throws {
        let room = RoomRecord(
            id: channel.roomID, appID: appID, pairKey: "channel:" + channel.roomID, createdAt: channel.createdAt,
            updatedAt: channel.createdAt, lastChatSeq: nil, kind: .channel, workspaceID: channel.workspaceID)
        try await connection.query(try PostgresColumns(room).insert(into: "room"), logger: logger)
        guard
            try await connection.count(
                try PostgresColumns(channel).insert(into: "channel", "ON CONFLICT (workspace_id, name) DO NOTHING RETURNING 1"), logger: logger
            ) > 0
        else {
            throw StoreError.conflict("the workspace has a channel of that name")
        }
        try await connection.query(
            "INSERT INTO participant (room_id, user_id, app_id) VALUES (\(channel.roomID), \(channel.ownerID), \(appID))", logger: logger
        )
    }

    func create(_ channel: ChannelRecord, appID: String) async throws {
        try await pool.transaction { try await Self.insert($0, channel, appID: appID, logger: pool.logger) }
    }

    func channels(of workspaceID: String) async throws -> [ChannelRecord] {
        try await pool.read {
            try await $0.records(
                ChannelRecord.self, "SELECT * FROM channel WHERE workspace_id = \(workspaceID) ORDER BY created_at, room_id", logger: pool.logger)
        }
    }

    func channels(of workspaceID: String, participant userID: String) async throws -> [ChannelRecord] {
        try await pool.read {
            try await $0.records(
                ChannelRecord.self,
                """
                SELECT channel.* FROM channel JOIN participant ON participant.room_id = channel.room_id AND participant.user_id = \(userID)
                WHERE channel.workspace_id = \(workspaceID) ORDER BY channel.created_at, channel.room_id
                """, logger: pool.logger)
        }
    }

    func channel(_ id: String, workspace workspaceID: String) async throws -> ChannelRecord {
        let found = try await pool.read {
            try await $0.record(
                ChannelRecord.self, "SELECT * FROM channel WHERE room_id = \(id) AND workspace_id = \(workspaceID)", logger: pool.logger)
        }
        guard let found else { throw StoreError.notFound("channel not found") }
        return found
    }

    func unreads(
        channel id: String, workspace workspaceID: String, member userID: String, appID: String, after: Int64?
    ) async throws -> (channel: ChannelRecord, count: Int) {
        let found = try await pool.read { connection -> (ChannelRecord, Int)? in
            guard
                let channel = try await connection.record(
                    ChannelRecord.self,
                    """
                    SELECT channel.* FROM channel
                    JOIN workspace ON workspace.id = channel.workspace_id AND workspace.app_id = \(appID) AND workspace.state = 'active'
                    JOIN workspace_member ON workspace_member.workspace_id = channel.workspace_id AND workspace_member.user_id = \(userID)
                    WHERE channel.room_id = \(id) AND channel.workspace_id = \(workspaceID)
                    """, logger: pool.logger)
            else { return nil }
            return (channel, try await Self.count(connection, roomID: id, after: after, excluding: [userID], logger: pool.logger))
        }
        guard let found else { throw StoreError.notFound("channel not found") }
        return found
    }

    func update(_ channel: ChannelRecord) async throws {
        do {
            try await pool.transaction { try await $0.query(try PostgresColumns(channel).update("channel", key: "room_id"), logger: pool.logger) }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("the workspace has a channel of that name")
        }
    }

    func delete(_ channelID: String) async throws {
        // The channel row and the messages go with the room.
        try await pool.transaction { try await $0.query("DELETE FROM room WHERE id = \(channelID)", logger: pool.logger) }
    }

    func members(of channelID: String) async throws -> [String] {
        try await pool.read {
            try await $0.values(String.self, "SELECT user_id FROM participant WHERE room_id = \(channelID) ORDER BY joined", logger: pool.logger)
        }
    }

    func join(_ channelID: String, userID: String, appID: String) async throws {
        try await pool.transaction {
            try await $0.query(
                """
                INSERT INTO participant (room_id, user_id, app_id) VALUES (\(channelID), \(userID), \(appID)) ON CONFLICT DO NOTHING
                """, logger: pool.logger)
        }
    }

    func leave(_ channelID: String, userID: String) async throws {
        try await pool.transaction {
            try await $0.query("DELETE FROM participant WHERE room_id = \(channelID) AND user_id = \(userID)", logger: pool.logger)
        }
    }

    func openDM(workspaceID: String, appID: String, userID: String, opponentID: String, at time: Int64) async throws -> RoomRecord {
        try await PostgresRoomStore.open(
            pool, appID: appID, pairKey: "dm:" + workspaceID + ":" + RoomRecord.pairKey(userID, opponentID), users: [userID, opponentID],
            at: time, kind: .dm, workspaceID: workspaceID
        )
    }

    func dms(workspaceID: String, userID: String) async throws -> [(room: RoomRecord, opponent: String)] {
        try await pool.read { connection in
            let rooms = try await connection.records(
                RoomRecord.self,
                """
                SELECT room.* FROM room JOIN participant ON participant.room_id = room.id AND participant.user_id = \(userID)
                WHERE room.workspace_id = \(workspaceID) AND room.kind = 'dm' ORDER BY room.updated_at DESC, room.id DESC LIMIT 1000
                """, logger: pool.logger)
            guard !rooms.isEmpty else { return [] }
            var opponents: [String: String] = [:]
            let rows = try await connection.query(
                "SELECT room_id, user_id FROM participant WHERE room_id = ANY(\(rooms.map(\.id))) AND user_id <> \(userID)", logger: pool.logger
            )
            for try await (room, user) in rows.decode((String, String).self) { opponents[room] = user }
            return rooms.map { ($0, opponents[$0.id] ?? userID) }
        }
    }

    func dm(_ roomID: String, workspace workspaceID: String, participant userID: String) async throws -> (room: RoomRecord, opponent: String) {
        guard ObjectID.isValid(roomID) else { throw StoreError.notFound("room not found") }
        let found = try await pool.read { connection -> (RoomRecord?, [String]) in
            (
                try await connection.record(RoomRecord.self, "SELECT * FROM room WHERE id = \(roomID)", logger: pool.logger),
                try await connection.values(String.self, "SELECT user_id FROM participant WHERE room_id = \(roomID)", logger: pool.logger)
            )
        }
        return try RoomAccess.dm(found.0, workspaceID: workspaceID, participants: found.1, caller: userID)
    }

    func unreadCount(roomID: String, after: Int64?, excluding excluded: Set<String>) async throws -> Int {
        try await pool.read { try await Self.count($0, roomID: roomID, after: after, excluding: excluded, logger: pool.logger) }
    }

    /// A range of the (room, time, sender) index from `after`.
    private static func count(
        _ connection: PostgresConnection, roomID: String, after: Int64?, excluding excluded: Set<String>, logger: Logger
    ) async throws -> Int {
        Int(
            try await connection.value(
                Int64.self,
                """
                SELECT COUNT(*) FROM chat WHERE room_id = \(roomID) AND created_at > \(after ?? -1) AND sender_id <> ALL(\(Array(excluded)))
                """, logger: logger) ?? 0)
    }
}
