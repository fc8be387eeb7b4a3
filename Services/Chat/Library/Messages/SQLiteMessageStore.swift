import Contracts
import GRDB
import Outbox
import ServiceKit

extension ChatRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "chat"
    /// The record's columns, not `*`: `*` would compute the generated search column of every row.
    static var databaseSelection: [any SQLSelectable] { CodingKeys.allCases.map { Column($0.rawValue) } }

    enum Columns {
        static let seq = Column(CodingKeys.seq)
        static let id = Column(CodingKeys.id)
        static let roomID = Column(CodingKeys.roomID)
        static let senderID = Column(CodingKeys.senderID)
        static let clientID = Column(CodingKeys.clientID)
        static let createdAt = Column(CodingKeys.createdAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        seq = inserted.rowID
    }
}

/// `MessageStore` on chat-svc's SQLite file (full-text search through its trigram index).
struct SQLiteMessageStore: MessageStore {
    let database: any DatabaseWriter

    func send(
        _ new: NewChat, appID: String, at time: Int64, live: (@Sendable (ChatRecord) -> LiveFrame)?,
        event: @escaping @Sendable (ChatRecord, _ participants: [String], _ presentElsewhere: [String]) -> ChatMessageEvent
    ) async throws -> (chat: ChatRecord, created: Bool, frame: LiveFrame?) {
        guard ObjectID.isValid(new.roomID) else { throw StoreError.notFound("room not found") }
        // Every message passes here: kept statements and columns read by position (no SQL
        // built, prepared and authorized afresh, no `Codable` row) keep the writer's share short.
        let stored = try await database.write { db -> (chat: ChatRecord, created: Bool) in
            guard let room = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT app_id, kind, workspace_id, updated_at FROM room WHERE id = ?"), arguments: [new.roomID]
            ), room[0] as String == appID, room[1] as String == new.kind.rawValue else {
                throw StoreError.notFound("room not found")
            }
            var participants = try String.fetchAll(
                db.cachedStatement(sql: "SELECT user_id FROM participant WHERE room_id = ? ORDER BY user_id"), arguments: [new.roomID]
            )
            if !participants.contains(new.senderID) {
                // A workspace member joins a channel by writing in it (API.md §8).
                guard new.kind == .channel, let workspaceID = room[2] as String?,
                      try WorkspaceMemberRecord.exists(db, key: ["workspace_id": workspaceID, "user_id": new.senderID]) else {
                    throw StoreError.notPermitted("not a participant of this room")
                }
                try ParticipantRecord(roomID: new.roomID, userID: new.senderID, appID: appID, readAt: 0).insert(db)
                participants.append(new.senderID)
            }
            if let clientID = new.clientID, let existing = try ChatRecord.filter(
                ChatRecord.Columns.roomID == new.roomID && ChatRecord.Columns.senderID == new.senderID && ChatRecord.Columns.clientID == clientID
            ).fetchOne(db) {
                return (existing, false)
            }
            let createdAt = max(time, room[3] as Int64 + 1)
            var chat = ChatRecord(
                seq: nil, id: ObjectID.generate(), roomID: new.roomID, senderID: new.senderID, content: new.content,
                files: JSONText.encode(new.files), clientID: new.clientID, createdAt: createdAt
            )
            try db.cachedStatement(sql: """
                INSERT INTO chat (id, room_id, sender_id, content, files, client_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [chat.id, chat.roomID, chat.senderID, chat.content, chat.files, chat.clientID, chat.createdAt])
            chat.seq = db.lastInsertedRowID
            try db.cachedStatement(sql: "UPDATE room SET updated_at = ?, last_chat_seq = ? WHERE id = ?")
                .execute(arguments: [createdAt, chat.seq, new.roomID])
            try SQLiteOutboxStore.enqueue(db, topic: ChatMessageEvent.topic, key: new.roomID, payload: event(chat, participants, []))
            return (chat, true)
        }
        // Made after the write: the file's one writer is not held for it.
        return (stored.chat, stored.created, stored.created ? live?(stored.chat) : nil)
    }

    func history(roomID: String, after: Int64?, limit: Int) async throws -> [ChatRecord] {
        try await database.read { db in
            try ChatRecord.filter(ChatRecord.Columns.roomID == roomID && ChatRecord.Columns.createdAt > (after ?? -1))
                .order(ChatRecord.Columns.createdAt).limit(limit).fetchAll(db)
        }
    }

    /// The trigram index, read in the room's partition only (`SearchPartition`), finds any
    /// substring of three characters or more (Korean words inside longer text included); shorter
    /// queries (a two-syllable Korean word) scan the room's messages instead.
    func search(roomID: String, query: String, limit: Int) async throws -> [ChatRecord] {
        try await database.read { db in
            if query.count >= 3 {
                let phrase = "\"" + query.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let match = "fts_room : \"\(SearchPartition.key(ofRoom: roomID))\" AND content : " + phrase
                // The index first (CROSS JOIN): left to itself SQLite walks the room's messages and
                // asks the index about each one, which is slow when few of them match.
                return try ChatRecord.fetchAll(db, sql: """
                    SELECT \(ChatRecord.selectedColumns) FROM chat_fts CROSS JOIN chat ON chat.seq = chat_fts.rowid
                    WHERE chat_fts MATCH ? AND chat.room_id = ? ORDER BY chat.created_at DESC LIMIT ?
                    """, arguments: [match, roomID, limit])
            }
            let pattern = LikePattern.containing(query)
            return try ChatRecord.fetchAll(db, sql: """
                SELECT \(ChatRecord.selectedColumns) FROM chat WHERE room_id = ? AND content LIKE ? ESCAPE '\\' ORDER BY created_at DESC LIMIT ?
                """, arguments: [roomID, pattern, limit])
        }
    }

    func chats(seqs: [Int64]) async throws -> [Int64: ChatRecord] {
        guard !seqs.isEmpty else { return [:] }
        return try await database.read { db in
            try ChatRecord.filter(seqs.contains(ChatRecord.Columns.seq)).fetchAll(db)
                .reduce(into: [Int64: ChatRecord]()) { $0[$1.seq ?? 0] = $1 }
        }
    }
}
