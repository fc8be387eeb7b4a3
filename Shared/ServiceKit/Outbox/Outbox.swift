import Contracts
import Foundation
import GRDB

/// Cross-service effects that must not be lost (API: payment → order granted, post → geo index,
/// message → push): written in the producer's own transaction, delivered later by `OutboxRelay`
/// until the consumer acknowledges. Consumers are idempotent by `key`.
package enum Outbox {
    package struct Message: Sendable, Equatable {
        package var id: Int64
        package var topic: String
        package var key: String
        package var payload: String
        package var attempts: Int
    }

    /// The table, created by each producing service's own migration.
    package static func createTable(_ db: Database) throws {
        try db.create(table: "outbox") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("topic", .text).notNull()
            t.column("key", .text).notNull()
            t.column("payload", .text).notNull()
            t.column("created_at", .integer).notNull()
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("next_attempt_at", .integer).notNull()
            t.column("delivered_at", .integer)
            t.column("last_error", .text)
        }
        try db.create(index: "outbox_due", on: "outbox", columns: ["delivered_at", "next_attempt_at"])
    }

    /// Records a message inside the caller's transaction.
    package static func enqueue(_ db: Database, topic: String, key: String, payload: some Encodable) throws {
        let now = GlintDate.nowMilliseconds()
        try db.execute(sql: "INSERT INTO outbox (topic, key, payload, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)",
                       arguments: [topic, key, JSONText.encode(payload), now, now])
    }

    /// Undelivered messages that are due, oldest first.
    static func due(_ db: Database, now: Int64, limit: Int) throws -> [Message] {
        try Row.fetchAll(db, sql: """
            SELECT id, topic, key, payload, attempts FROM outbox WHERE delivered_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?
            """, arguments: [now, limit]).map { row in
            Message(id: row["id"], topic: row["topic"], key: row["key"], payload: row["payload"], attempts: row["attempts"])
        }
    }

    /// Undelivered messages ordered before `id` with the same key: a later message must not
    /// overtake an earlier one (create, move, delete of one post stay in order).
    static func hasEarlierPending(_ db: Database, key: String, before id: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM outbox WHERE key = ? AND id < ? AND delivered_at IS NULL", arguments: [key, id]) ?? false
    }
}
