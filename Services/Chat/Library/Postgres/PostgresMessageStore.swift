import Contracts
import PostgresNIO
import ServiceKit

/// `MessageStore` on PostgreSQL: messages of replicas sharing one database, each message's frame
/// announced to the other replicas (`LiveFrameListener`) when it commits.
struct PostgresMessageStore: MessageStore {
    let pool: PostgresPool
    /// This replica, so that its listener skips the frames its own sockets already had.
    let origin: String

    func send(
        _ new: NewChat, appID: String, at time: Int64, live: (@Sendable (ChatRecord) -> LiveFrame)?,
        event: @escaping @Sendable (ChatRecord, _ participants: [String]) -> ChatMessageEvent
    ) async throws -> (chat: ChatRecord, created: Bool) {
        guard ObjectID.isValid(new.roomID) else { throw StoreError.notFound("room not found") }
        let logger = pool.logger
        return try await pool.transaction { connection in
            // The room's row is locked: its messages' times stay strictly increasing across replicas.
            let rows = try await connection.query(
                "SELECT app_id, kind, workspace_id, updated_at FROM room WHERE id = \(new.roomID) FOR UPDATE", logger: logger
            )
            var room: (appID: String, kind: String, workspaceID: String?, updatedAt: Int64)?
            for try await row in rows.decode((String, String, String?, Int64).self) { room = row }
            guard let room, room.appID == appID, room.kind == new.kind.rawValue else { throw StoreError.notFound("room not found") }
            var participants = try await connection.values(
                String.self, "SELECT user_id FROM participant WHERE room_id = \(new.roomID) ORDER BY user_id", logger: logger
            )
            if !participants.contains(new.senderID) {
                // A workspace member joins a channel by writing in it (API.md §8).
                guard new.kind == .channel, let workspaceID = room.workspaceID, try await connection.count(
                    "SELECT 1 FROM workspace_member WHERE workspace_id = \(workspaceID) AND user_id = \(new.senderID)", logger: logger
                ) > 0 else {
                    throw StoreError.notPermitted("not a participant of this room")
                }
                try await connection.query(
                    "INSERT INTO participant (room_id, user_id, app_id) VALUES (\(new.roomID), \(new.senderID), \(appID))", logger: logger
                )
                participants.append(new.senderID)
            }
            if let clientID = new.clientID, let existing = try await connection.record(ChatRecord.self, """
                SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat
                WHERE room_id = \(new.roomID) AND sender_id = \(new.senderID) AND client_id = \(clientID)
                """, logger: logger) {
                return (existing, false)
            }
            var chat = ChatRecord(
                seq: nil, id: ObjectID.generate(), roomID: new.roomID, senderID: new.senderID, content: new.content,
                files: JSONText.encode(new.files), clientID: new.clientID, createdAt: max(time, room.updatedAt + 1)
            )
            // The message and the room's activity in one statement.
            chat.seq = try await connection.value(Int64.self, """
                WITH stored AS (
                    INSERT INTO chat (id, room_id, sender_id, content, files, client_id, created_at)
                    VALUES (\(chat.id), \(chat.roomID), \(chat.senderID), \(chat.content), \(chat.files), \(chat.clientID), \(chat.createdAt))
                    RETURNING seq)
                UPDATE room SET updated_at = \(chat.createdAt), last_chat_seq = stored.seq FROM stored WHERE room.id = \(new.roomID)
                RETURNING stored.seq
                """, logger: logger)
            guard let seq = chat.seq else { throw StoreError.notFound("room not found") }
            try await PostgresOutboxStore.enqueue(connection, topic: ChatMessageEvent.topic, key: new.roomID, payload: event(chat, participants), logger: logger)
            if let frame = live?(chat) {
                // Delivered to the listeners when the transaction commits, never before.
                try await connection.query("""
                    WITH logged AS (
                        INSERT INTO live_frame (seq, origin, room_id, event, json) VALUES (\(seq), \(origin), \(frame.roomID), \(frame.event), \(frame.json))
                        RETURNING seq)
                    SELECT pg_notify(\(LiveFrameListener.channel), \(origin) || ' ' || seq) FROM logged
                    """, logger: logger)
            }
            return (chat, true)
        }
    }

    func history(roomID: String, after: Int64?, limit: Int) async throws -> [ChatRecord] {
        try await pool.read {
            try await $0.records(ChatRecord.self, """
                SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat WHERE room_id = \(roomID) AND created_at > \(after ?? -1)
                ORDER BY created_at LIMIT \(limit)
                """, logger: pool.logger)
        }
    }

    /// The room's part of the trigram index (`chat_search`: room id and content) narrows to
    /// messages holding the query's trigrams; `ILIKE` (case-insensitive, as SQLite's index) then
    /// checks the substring itself, so the answer is exact for any query length (one or two
    /// characters read the room's messages).
    func search(roomID: String, query: String, limit: Int) async throws -> [ChatRecord] {
        let pattern = LikePattern.containing(query)
        return try await pool.read {
            try await $0.records(ChatRecord.self, """
                SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat WHERE room_id = \(roomID) AND content ILIKE \(pattern)
                ORDER BY created_at DESC LIMIT \(limit)
                """, logger: pool.logger)
        }
    }

    func chats(seqs: [Int64]) async throws -> [Int64: ChatRecord] {
        guard !seqs.isEmpty else { return [:] }
        return try await pool.read {
            try await $0.records(ChatRecord.self, "SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat WHERE seq = ANY(\(seqs))", logger: pool.logger)
                .reduce(into: [Int64: ChatRecord]()) { $0[$1.seq ?? 0] = $1 }
        }
    }
}
