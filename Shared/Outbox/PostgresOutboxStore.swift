import Contracts
import Logging
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `OutboxStore` on PostgreSQL, where several replicas of a service relay one outbox: a round's
/// messages are leased to the relay that took them (claims one relay at a time, so a key's later
/// message is never taken while its earlier one is out).
package struct PostgresOutboxStore: OutboxStore {
    let database: PostgresPool

    package init(database: PostgresPool) {
        self.database = database
    }

    /// The table, part of each producing service's migrations.
    package static let createTable = [
        """
        CREATE TABLE outbox (
            id bigserial PRIMARY KEY, topic text NOT NULL, key text NOT NULL, payload text NOT NULL, created_at bigint NOT NULL,
            attempts integer NOT NULL DEFAULT 0, next_attempt_at bigint NOT NULL, delivered_at bigint, last_error text)
        """,
        "CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE delivered_at IS NULL",
        "CREATE INDEX outbox_delivered ON outbox (delivered_at) WHERE delivered_at IS NOT NULL",
    ]

    /// What a new message sets (its delivery fields start empty), for statements that write one
    /// beside other rows.
    package static let columns = "topic, key, payload, created_at, next_attempt_at"

    /// Records a message inside the caller's transaction.
    package static func enqueue(_ connection: PostgresConnection, topic: String, key: String, payload: some Encodable, logger: Logger) async throws {
        let now = GlintDate.nowMilliseconds()
        let text = JSONText.encode(payload)
        try await connection.query(
            "INSERT INTO outbox (\(unescaped: columns)) VALUES (\(topic), \(key), \(text), \(now), \(now))", logger: logger
        )
    }

    package func due(at now: Int64, limit: Int, lease: Int64) async throws -> [OutboxMessage] {
        let logger = database.logger
        return try await database.client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.claimLock))", logger: logger)
            let rows = try await connection.query(
                """
                UPDATE outbox SET next_attempt_at = \(now + lease) WHERE id IN (
                    SELECT id FROM outbox WHERE delivered_at IS NULL AND next_attempt_at <= \(now)
                    AND key NOT IN (SELECT key FROM outbox WHERE delivered_at IS NULL AND next_attempt_at > \(now))
                    ORDER BY id LIMIT \(limit))
                RETURNING id, topic, key, payload, attempts
                """, logger: logger)
            var messages: [OutboxMessage] = []
            for try await (id, topic, key, payload, attempts) in rows.decode((Int64, String, String, String, Int32).self) {
                messages.append(OutboxMessage(id: id, topic: topic, key: key, payload: payload, attempts: Int(attempts)))
            }
            return messages.sorted { $0.id < $1.id }
        }
    }

    package func markDelivered(_ ids: [Int64], at time: Int64) async throws {
        guard !ids.isEmpty else { return }
        try await database.client.query(
            "UPDATE outbox SET delivered_at = \(time), attempts = attempts + 1, last_error = NULL WHERE id = ANY(\(ids))", logger: database.logger
        )
    }

    package func markFailed(_ id: Int64, retryAt: Int64, error: String) async throws {
        try await database.client.query(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = \(retryAt), last_error = \(error) WHERE id = \(id)", logger: database.logger
        )
    }

    /// Their lease ends: they go with their key's retry rather than when the lease would have
    /// run out (a minute). Due again from their creation, as before the round took them.
    package func release(_ ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await database.client.query(
            "UPDATE outbox SET next_attempt_at = created_at WHERE id = ANY(\(ids)) AND delivered_at IS NULL", logger: database.logger
        )
    }

    package func prune(deliveredBefore time: Int64) async throws {
        try await database.client.query("DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < \(time)", logger: database.logger)
    }

    package func redeliver(deliveredSince time: Int64, at now: Int64) async throws -> Int {
        let rows = try await database.client.query(
            "UPDATE outbox SET delivered_at = NULL, next_attempt_at = \(now) WHERE delivered_at >= \(time) RETURNING id", logger: database.logger)
        var count = 0
        for try await _ in rows.decode(Int64.self) { count += 1 }
        return count
    }

    private static let claimLock: Int64 = 0x676C_696E_746F_7574  // "glintout"
}
