import Contracts
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `RoomStore` on PostgreSQL.
struct PostgresRoomStore: RoomStore {
    let pool: PostgresPool

    func open(appID: String, userID: String, opponentID: String, at time: Int64) async throws -> RoomRecord {
        try await Self.open(
            pool, appID: appID, pairKey: RoomRecord.pairKey(userID, opponentID), users: [userID, opponentID], at: time, kind: .pair, workspaceID: nil)
    }

    /// The room of `pairKey` in the app, made with its two participants on first use. Two
    /// replicas making it at once: one insert wins (the key is unique), the other reads its room.
    static func open(
        _ pool: PostgresPool, appID: String, pairKey: String, users: [String], at time: Int64, kind: RoomKind, workspaceID: String?
    ) async throws -> RoomRecord {
        let logger = pool.logger
        return try await pool.transaction { connection in
            let room = RoomRecord(
                id: ObjectID.generate(), appID: appID, pairKey: pairKey, createdAt: time, updatedAt: time, lastChatSeq: nil,
                kind: kind, workspaceID: workspaceID)
            let inserted = try await connection.count(
                try PostgresColumns(room).insert(into: "room", "ON CONFLICT (app_id, pair_key) DO NOTHING RETURNING 1"), logger: logger
            )
            if inserted == 0,
                let existing = try await connection.record(
                    RoomRecord.self, "SELECT * FROM room WHERE app_id = \(appID) AND pair_key = \(pairKey)", logger: logger
                )
            {
                return existing
            }
            for user in users {
                try await connection.query(
                    "INSERT INTO participant (room_id, user_id, app_id) VALUES (\(room.id), \(user), \(appID))", logger: logger)
            }
            return room
        }
    }

    func room(_ id: String) async throws -> RoomRecord? {
        guard ObjectID.isValid(id) else { return nil }
        return try await pool.read { try await $0.record(RoomRecord.self, "SELECT * FROM room WHERE id = \(id)", logger: pool.logger) }
    }

    func room(_ id: String, participant userID: String, appID: String) async throws -> RoomRecord {
        guard ObjectID.isValid(id) else { throw StoreError.notFound("room not found") }
        let found = try await pool.read { connection -> (RoomRecord?, Bool) in
            (
                try await connection.record(RoomRecord.self, "SELECT * FROM room WHERE id = \(id)", logger: pool.logger),
                try await Self.isParticipant(connection, roomID: id, userID: userID, logger: pool.logger)
            )
        }
        return try RoomAccess.pair(found.0, appID: appID, participant: found.1)
    }

    func isParticipant(roomID: String, userID: String) async throws -> Bool {
        try await pool.read { try await Self.isParticipant($0, roomID: roomID, userID: userID, logger: pool.logger) }
    }

    private static func isParticipant(_ connection: PostgresConnection, roomID: String, userID: String, logger: Logger) async throws -> Bool {
        try await connection.count("SELECT 1 FROM participant WHERE room_id = \(roomID) AND user_id = \(userID)", logger: logger) > 0
    }

    func participants(of roomIDs: [String]) async throws -> [String: [String]] {
        guard !roomIDs.isEmpty else { return [:] }
        return try await pool.read {
            try await $0.records(
                ParticipantRecord.self, "SELECT * FROM participant WHERE room_id = ANY(\(roomIDs)) ORDER BY user_id", logger: pool.logger
            )
            .reduce(into: [String: [String]]()) { $0[$1.roomID, default: []].append($1.userID) }
        }
    }

    func rooms(of userID: String, appID: String, limit: Int) async throws -> [RoomRecord] {
        try await pool.read {
            try await $0.records(
                RoomRecord.self,
                """
                SELECT room.* FROM participant JOIN room ON room.id = participant.room_id
                WHERE participant.app_id = \(appID) AND participant.user_id = \(userID) AND room.kind = 'pair'
                ORDER BY room.updated_at DESC, room.id DESC LIMIT \(limit)
                """, logger: pool.logger)
        }
    }

    func markRead(roomID: String, userID: String, chatID: String) async throws -> Int {
        let logger = pool.logger
        return try await pool.transaction { connection in
            guard
                let createdAt = try await connection.value(
                    Int64.self, "SELECT created_at FROM chat WHERE id = \(chatID) AND room_id = \(roomID)", logger: logger
                )
            else {
                throw StoreError.notFound("chat not found in this room")
            }
            try await connection.query(
                "UPDATE participant SET read_at = GREATEST(read_at, \(createdAt)) WHERE room_id = \(roomID) AND user_id = \(userID)", logger: logger
            )
            return try await Self.unread(connection, roomIDs: [roomID], userID: userID, logger: logger)[roomID] ?? 0
        }
    }

    func unreadCounts(userID: String, appID: String) async throws -> [RoomUnreadCount] {
        try await pool.read { connection in
            let rooms = try await connection.values(
                String.self,
                """
                SELECT participant.room_id FROM participant JOIN room ON room.id = participant.room_id
                WHERE participant.app_id = \(appID) AND participant.user_id = \(userID) AND room.kind = 'pair' ORDER BY room.updated_at DESC LIMIT 1000
                """, logger: pool.logger)
            let counts = try await Self.unread(connection, roomIDs: rooms, userID: userID, logger: pool.logger)
            return rooms.map { RoomUnreadCount(roomID: $0, count: counts[$0] ?? 0) }
        }
    }

    /// Others' messages after the user's read pointer, for all the rooms in one statement.
    private static func unread(_ connection: PostgresConnection, roomIDs: [String], userID: String, logger: Logger) async throws -> [String: Int] {
        guard !roomIDs.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            SELECT participant.room_id, (SELECT COUNT(*) FROM chat WHERE chat.room_id = participant.room_id AND chat.sender_id <> \(userID)
                                         AND chat.created_at > participant.read_at)
            FROM participant WHERE participant.room_id = ANY(\(roomIDs)) AND participant.user_id = \(userID)
            """, logger: logger)
        var counts: [String: Int] = [:]
        for try await (room, count) in rows.decode((String, Int64).self) { counts[room] = Int(count) }
        return counts
    }
}
