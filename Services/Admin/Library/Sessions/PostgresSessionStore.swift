import PostgresStorage

/// `SessionStore` on PostgreSQL.
struct PostgresSessionStore: SessionStore {
    let pool: PostgresPool

    func insert(_ session: SessionRecord) async throws {
        try await pool.transaction { connection in
            _ = try await connection.query(
                """
                INSERT INTO admin_session (token_hash, operator_id, csrf_token, address, created_at, last_seen_at)
                VALUES (\(session.tokenHash), \(session.operatorID), \(session.csrfToken), \(session.address), \(session.createdAt), \(session.lastSeenAt))
                """, logger: pool.logger)
        }
    }

    func session(tokenHash: String, idleSince: Int64, now: Int64, touchAfter: Int64) async throws -> SessionRecord? {
        let found = try await pool.read {
            try await $0.record(
                SessionRecord.self, "SELECT * FROM admin_session WHERE token_hash = \(tokenHash) AND last_seen_at > \(idleSince)", logger: pool.logger
            )
        }
        guard var session = found else { return nil }
        if session.lastSeenAt < touchAfter {
            try await pool.transaction { connection in
                _ = try await connection.query(
                    "UPDATE admin_session SET last_seen_at = \(now) WHERE token_hash = \(tokenHash)", logger: pool.logger)
            }
            session.lastSeenAt = now
        }
        return session
    }

    func delete(tokenHash: String) async throws {
        try await pool.transaction { _ = try await $0.query("DELETE FROM admin_session WHERE token_hash = \(tokenHash)", logger: pool.logger) }
    }

    func deleteAll(operatorID: String, except: String?) async throws -> Int {
        try await pool.transaction { connection in
            try await connection.values(
                String.self,
                "DELETE FROM admin_session WHERE operator_id = \(operatorID) AND token_hash IS DISTINCT FROM \(except) RETURNING token_hash",
                logger: pool.logger
            ).count
        }
    }

    func recordFailure(keys: [String], at time: Int64) async throws {
        try await pool.transaction { connection in
            for key in keys { _ = try await connection.query("INSERT INTO sign_in_failure (key, at) VALUES (\(key), \(time))", logger: pool.logger) }
            let cutoff = time - 86_400_000
            _ = try await connection.query("DELETE FROM sign_in_failure WHERE at < \(cutoff)", logger: pool.logger)
        }
    }

    func failures(keys: [String], since: Int64) async throws -> Int {
        try await pool.read { connection in
            var most = 0
            for key in keys {
                let count = try await connection.value(
                    Int.self, "SELECT count(*) FROM sign_in_failure WHERE key = \(key) AND at >= \(since)", logger: pool.logger)
                most = max(most, count ?? 0)
            }
            return most
        }
    }
}
