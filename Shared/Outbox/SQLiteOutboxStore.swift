import Contracts
import Foundation
import GRDB
import ServiceKit

/// Cross-service effects that must not be lost (payment → order granted, post → geo index,
/// message → push) in the producer's SQLite file: written in the producer's own transaction
/// (`enqueue`), delivered later by `OutboxRelay` until the consumer acknowledges. Consumers are
/// idempotent by `key`.
package struct SQLiteOutboxStore: OutboxStore {
    let database: any DatabaseWriter

    package init(database: any DatabaseWriter) {
        self.database = database
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
        try db.cachedStatement(sql: "INSERT INTO outbox (topic, key, payload, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [topic, key, JSONText.encode(payload), now, now])
    }

    /// One process owns the file, so nothing is leased.
    package func due(at now: Int64, limit: Int, lease: Int64) async throws -> [OutboxMessage] {
        try await database.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, topic, key, payload, attempts FROM outbox WHERE delivered_at IS NULL AND next_attempt_at <= ?
                        AND key NOT IN (SELECT key FROM outbox WHERE delivered_at IS NULL AND next_attempt_at > ?) ORDER BY id LIMIT ?
                        """), arguments: [now, now, limit]
            ).map { row in
                OutboxMessage(id: row[0], topic: row[1], key: row[2], payload: row[3], attempts: row[4])
            }
        }
    }

    package func markDelivered(_ ids: [Int64], at time: Int64) async throws {
        guard !ids.isEmpty else { return }
        try await database.write { db in
            let statement = try db.cachedStatement(sql: "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?")
            for id in ids { try statement.execute(arguments: [time, id]) }
        }
    }

    package func markFailed(_ id: Int64, retryAt: Int64, error: String) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?", arguments: [retryAt, error, id])
        }
    }

    /// Nothing to give back: on one file one process relays, and `due` leases nothing.
    package func release(_ ids: [Int64]) async throws {}

    package func redeliver(deliveredSince time: Int64, at now: Int64) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE outbox SET delivered_at = NULL, next_attempt_at = ? WHERE delivered_at >= ?", arguments: [now, time])
            return db.changesCount
        }
    }

    package func prune(deliveredBefore time: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?", arguments: [time])
        }
    }
}
