import Contracts
import GRDB
import Outbox
import SQLiteStorage
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
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func send(
        _ new: NewChat, appID: String, at time: Int64, live: (@Sendable (ChatRecord) -> LiveFrame)?,
        event: @escaping @Sendable (ChatRecord, _ participants: [String], _ presentElsewhere: [String]) -> ChatMessageEvent
    ) async throws -> (chat: ChatRecord, created: Bool, frame: LiveFrame?) {
        try SendRules.check(roomID: new.roomID)
        // Every message passes here: kept statements and columns read by position (no SQL
        // built, prepared and authorized afresh, no `Codable` row) keep the writer's share short.
        let stored = try await database.write { db -> (chat: ChatRecord, created: Bool) in
            switch try SendRules.decide(new, appID: appID, at: time, room: try Self.room(db, for: new)) {
            case .answerStored(let existing):
                return (existing, false)
            case .store(var chat, let joins, let participants):
                if joins { try ParticipantRecord(roomID: new.roomID, userID: new.senderID, appID: appID, readAt: 0).insert(db) }
                try db.cachedStatement(
                    sql: """
                        INSERT INTO chat (id, room_id, sender_id, content, files, client_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [chat.id, chat.roomID, chat.senderID, chat.content, chat.files, chat.clientID, chat.createdAt])
                chat.seq = db.lastInsertedRowID
                try db.cachedStatement(sql: "UPDATE room SET updated_at = ?, last_chat_seq = ? WHERE id = ?")
                    .execute(arguments: [chat.createdAt, chat.seq, new.roomID])
                try SQLiteOutboxStore.enqueue(db, topic: ChatMessageEvent.topic, key: new.roomID, payload: event(chat, participants, []))
                return (chat, true)
            }
        }
        // Made after the write: the file's one writer is not held for it.
        return (stored.chat, stored.created, stored.created ? live?(stored.chat) : nil)
    }

    /// What `SendRules` needs of the message's room; nil when there is none. Workspace membership
    /// is read only for a sender who is not a participant, the one case that asks it.
    private static func room(_ db: Database, for new: NewChat) throws -> SendRules.Room? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT app_id, kind, workspace_id, updated_at FROM room WHERE id = ?"), arguments: [new.roomID]
            )
        else { return nil }
        let participants = try String.fetchAll(
            db.cachedStatement(sql: "SELECT user_id FROM participant WHERE room_id = ? ORDER BY user_id"), arguments: [new.roomID]
        )
        var member = false
        if !participants.contains(new.senderID), let workspaceID = row[2] as String? {
            member = try WorkspaceMemberRecord.exists(db, key: ["workspace_id": workspaceID, "user_id": new.senderID])
        }
        let retried = try new.clientID.flatMap { clientID in
            try ChatRecord.filter(
                ChatRecord.Columns.roomID == new.roomID && ChatRecord.Columns.senderID == new.senderID && ChatRecord.Columns.clientID == clientID
            ).fetchOne(db)
        }
        return SendRules.Room(
            appID: row[0], kind: row[1], updatedAt: row[3], participants: participants, senderIsWorkspaceMember: member, retried: retried
        )
    }

    func history(roomID: String, after: Int64?, limit: Int) async throws -> [ChatRecord] {
        try await database.read { db in
            try ChatRecord.filter(ChatRecord.Columns.roomID == roomID && ChatRecord.Columns.createdAt > (after ?? -1))
                .order(ChatRecord.Columns.createdAt).limit(limit).fetchAll(db)
        }
    }

    func earlier(roomID: String, before: Int64, limit: Int) async throws -> [ChatRecord] {
        try await database.read { db in
            try ChatRecord.filter(ChatRecord.Columns.roomID == roomID && ChatRecord.Columns.createdAt < before)
                .order(ChatRecord.Columns.createdAt.desc).limit(limit).fetchAll(db)
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
                return try ChatRecord.fetchAll(
                    db,
                    sql: """
                        SELECT \(ChatRecord.selectedColumns) FROM chat_fts CROSS JOIN chat ON chat.seq = chat_fts.rowid
                        WHERE chat_fts MATCH ? AND chat.room_id = ? ORDER BY chat.created_at DESC LIMIT ?
                        """, arguments: [match, roomID, limit])
            }
            let pattern = LikePattern.containing(query)
            return try ChatRecord.fetchAll(
                db,
                sql: """
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

    func chat(id: String, appID: String) async throws -> ChatRecord? {
        try lookups.readNow { db in
            try ChatRecord.fetchOne(
                db, sql: "SELECT \(ChatRecord.selectedColumns) FROM chat JOIN room ON room.id = chat.room_id WHERE chat.id = ? AND room.app_id = ?",
                arguments: [id, appID])
        }
    }
}
