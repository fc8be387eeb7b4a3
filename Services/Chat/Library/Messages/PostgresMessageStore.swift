import Contracts
import Outbox
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `MessageStore` on PostgreSQL: messages of replicas sharing one database, each message's frame
/// announced to every replica's listener (`LiveFrameListener`) when it commits.
struct PostgresMessageStore: MessageStore {
    let pool: PostgresPool
    /// This replica, named in the frames it announces.
    let origin: String

    func send(
        _ new: NewChat, appID: String, at time: Int64, live: (@Sendable (ChatRecord) -> LiveFrame)?,
        event: @escaping @Sendable (ChatRecord, _ participants: [String], _ presentElsewhere: [String]) -> ChatMessageEvent
    ) async throws -> (chat: ChatRecord, created: Bool, frame: LiveFrame?) {
        try SendRules.check(roomID: new.roomID)
        if let stored = try await sendUncontended(new, appID: appID, at: time, live: live, event: event) { return (stored.chat, true, stored.frame) }
        return try await sendLocked(new, appID: appID, at: time, live: live, event: event)
    }

    /// The common case in two statements and no transaction of several (each round trip to the
    /// server costs both sides): the room read, then one statement that stores the message, its
    /// push event and its frame only if the room's last activity is still the one read. Nil when
    /// it is not (another message came in between), when the sender must join the channel, or for
    /// a retried `client_id`: the locked path decides those.
    private func sendUncontended(
        _ new: NewChat, appID: String, at time: Int64, live: (@Sendable (ChatRecord) -> LiveFrame)?,
        event: @Sendable (ChatRecord, _ participants: [String], _ presentElsewhere: [String]) -> ChatMessageEvent
    ) async throws -> (chat: ChatRecord, frame: LiveFrame?)? {
        let rows = try await pool.client.query(
            """
            SELECT app_id, kind, updated_at, ARRAY(SELECT user_id FROM participant WHERE room_id = room.id ORDER BY user_id),
                   EXISTS (SELECT 1 FROM chat WHERE room_id = room.id AND sender_id = \(new.senderID) AND client_id = \(new.clientID)),
                   ARRAY(\(unescaped: PresenceBoard.elsewhere(room: "room.id", origin: origin)))
            FROM room WHERE id = \(new.roomID)
            """, logger: pool.logger)
        var found: (appID: String, kind: String, updatedAt: Int64, participants: [String], retried: Bool, elsewhere: [String])?
        for try await row in rows.decode((String, String, Int64, [String], Bool, [String]).self) { found = row }
        // A sender who is not a participant yet, and a retry, need what only the locked path reads.
        if let room = found, !room.participants.contains(new.senderID) || room.retried { return nil }
        let room = found.map {
            SendRules.Room(
                appID: $0.appID, kind: $0.kind, updatedAt: $0.updatedAt, participants: $0.participants,
                senderIsWorkspaceMember: false, retried: nil)
        }
        guard case .store(let chat, joins: false, let participants) = try SendRules.decide(new, appID: appID, at: time, room: room) else {
            return nil
        }
        let elsewhere = found?.elsewhere ?? []
        let frame = live?(chat)
        do {
            return try await write(chat, event: event(chat, participants, elsewhere), frame: frame, ifRoomUpdatedAt: room?.updatedAt) {
                try await pool.client.query($0, logger: pool.logger)
            }.map { ($0, frame) }
        } catch let error as PSQLError where error.isUniqueViolation {
            // The same `client_id` stored meanwhile: the locked path answers it.
            return nil
        }
    }

    /// The room's row locked for the whole operation: its messages' times stay strictly increasing.
    private func sendLocked(
        _ new: NewChat, appID: String, at time: Int64, live: (@Sendable (ChatRecord) -> LiveFrame)?,
        event: @escaping @Sendable (ChatRecord, _ participants: [String], _ presentElsewhere: [String]) -> ChatMessageEvent
    ) async throws -> (chat: ChatRecord, created: Bool, frame: LiveFrame?) {
        let logger = pool.logger
        return try await pool.transaction { connection in
            let rows = try await connection.query(
                "SELECT app_id, kind, updated_at FROM room WHERE id = \(new.roomID) FOR UPDATE", logger: logger
            )
            var found: (appID: String, kind: String, updatedAt: Int64)?
            for try await row in rows.decode((String, String, Int64).self) { found = row }
            // Its participants, whether the sender is a member of its workspace, who has it open on
            // another replica, and a stored message of this `client_id`: one round trip (the room is locked meanwhile).
            var read: (participants: [String], member: Bool, elsewhere: [String], retried: String?)?
            for try await row in try await connection.query(
                """
                SELECT ARRAY(SELECT user_id FROM participant WHERE room_id = room.id ORDER BY user_id),
                       EXISTS (SELECT 1 FROM workspace_member WHERE workspace_id = room.workspace_id AND user_id = \(new.senderID)),
                       ARRAY(\(unescaped: PresenceBoard.elsewhere(room: "room.id", origin: origin))),
                       (SELECT id FROM chat WHERE room_id = room.id AND sender_id = \(new.senderID) AND client_id = \(new.clientID))
                FROM room WHERE id = \(new.roomID)
                """, logger: logger
            ).decode(([String], Bool, [String], String?).self) {
                read = row
            }
            var retried: ChatRecord?
            if let id = read?.retried {
                retried = try await connection.record(
                    ChatRecord.self, "SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat WHERE id = \(id)", logger: logger)
            }
            let room = found.map { found in
                SendRules.Room(
                    appID: found.appID, kind: found.kind, updatedAt: found.updatedAt, participants: read?.participants ?? [],
                    senderIsWorkspaceMember: read?.member ?? false, retried: retried)
            }
            let (chat, participants): (ChatRecord, [String])
            switch try SendRules.decide(new, appID: appID, at: time, room: room) {
            case .answerStored(let existing):
                return (existing, false, nil)
            case .store(let made, let joins, let all):
                if joins {
                    try await connection.query(
                        "INSERT INTO participant (room_id, user_id, app_id) VALUES (\(new.roomID), \(new.senderID), \(appID))", logger: logger
                    )
                }
                (chat, participants) = (made, all)
            }
            let elsewhere = read?.elsewhere ?? []
            let frame = live?(chat)
            let stored = try await write(chat, event: event(chat, participants, elsewhere), frame: frame, ifRoomUpdatedAt: nil) {
                try await connection.query($0, logger: logger)
            }
            guard let stored else { throw StoreError.notFound("room not found") }
            return (stored, true, frame)
        }
    }

    /// One statement: the room's activity (only if still `ifRoomUpdatedAt`, when given), the
    /// message, its push event in the outbox and its frame, announced as `origin seq logged_at`
    /// when the statement's transaction commits. The stored message, or nil when the room had moved on.
    private func write(
        _ chat: ChatRecord, event: ChatMessageEvent, frame: LiveFrame?, ifRoomUpdatedAt expected: Int64?,
        run: (PostgresQuery) async throws -> PostgresRowSequence
    ) async throws -> ChatRecord? {
        let (payload, now) = (JSONText.encode(event), GlintDate.nowMilliseconds())
        let rows = try await run(
            """
            WITH touched AS (
                UPDATE room SET updated_at = \(chat.createdAt), last_chat_seq = nextval(pg_get_serial_sequence('chat', 'seq'))
                WHERE id = \(chat.roomID) AND (\(expected)::bigint IS NULL OR updated_at = \(expected)) RETURNING last_chat_seq AS seq),
            stored AS (
                INSERT INTO chat (seq, id, room_id, sender_id, content, files, client_id, created_at)
                SELECT seq, \(chat.id), \(chat.roomID), \(chat.senderID), \(chat.content), \(chat.files), \(chat.clientID), \(chat.createdAt)
                FROM touched RETURNING seq),
            queued AS (
                INSERT INTO outbox (\(unescaped: PostgresOutboxStore.columns))
                SELECT \(ChatMessageEvent.topic), \(chat.roomID), \(payload), \(now), \(now) FROM stored),
            logged AS (
                INSERT INTO live_frame (seq, origin, room_id, event, json)
                SELECT seq, \(origin), \(chat.roomID), \(frame?.event ?? ""), \(frame?.json ?? "") FROM stored WHERE \(frame != nil)
                RETURNING seq, logged_at),
            notified AS (SELECT pg_notify(\(LiveFrameListener.channel), \(origin) || ' ' || seq || ' ' || logged_at) FROM logged)
            SELECT stored.seq FROM stored LEFT JOIN notified ON true
            """)
        var stored = chat
        for try await seq in rows.decode(Int64.self) { stored.seq = seq }
        return stored.seq == nil ? nil : stored
    }

    func history(roomID: String, after: Int64?, limit: Int) async throws -> [ChatRecord] {
        try await pool.read {
            try await $0.records(
                ChatRecord.self,
                """
                SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat WHERE room_id = \(roomID) AND created_at > \(after ?? -1)
                ORDER BY created_at LIMIT \(limit)
                """, logger: pool.logger)
        }
    }

    func earlier(roomID: String, before: Int64, limit: Int) async throws -> [ChatRecord] {
        try await pool.read {
            try await $0.records(
                ChatRecord.self,
                """
                SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat WHERE room_id = \(roomID) AND created_at < \(before)
                ORDER BY created_at DESC LIMIT \(limit)
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
            try await $0.records(
                ChatRecord.self,
                """
                SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat WHERE room_id = \(roomID) AND content ILIKE \(pattern)
                ORDER BY created_at DESC LIMIT \(limit)
                """, logger: pool.logger)
        }
    }

    func chats(seqs: [Int64]) async throws -> [Int64: ChatRecord] {
        guard !seqs.isEmpty else { return [:] }
        return try await pool.read {
            try await $0.records(
                ChatRecord.self, "SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat WHERE seq = ANY(\(seqs))", logger: pool.logger
            )
            .reduce(into: [Int64: ChatRecord]()) { $0[$1.seq ?? 0] = $1 }
        }
    }

    func chat(id: String, appID: String) async throws -> ChatRecord? {
        try await pool.read {
            try await $0.record(
                ChatRecord.self,
                "SELECT \(unescaped: ChatRecord.selectedColumns) FROM chat JOIN room ON room.id = chat.room_id WHERE chat.id = \(id) AND room.app_id = \(appID)",
                logger: pool.logger)
        }
    }
}
