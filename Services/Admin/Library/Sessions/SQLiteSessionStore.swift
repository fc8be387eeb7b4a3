import GRDB

/// `SessionStore` on admin-svc's file.
struct SQLiteSessionStore: SessionStore {
    let database: any DatabaseWriter

    func insert(_ session: SessionRecord) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO admin_session (token_hash, operator_id, csrf_token, address, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [session.tokenHash, session.operatorID, session.csrfToken, session.address, session.createdAt, session.lastSeenAt])
        }
    }

    func session(tokenHash: String, idleSince: Int64, now: Int64, touchAfter: Int64) async throws -> SessionRecord? {
        let found = try await database.read { db in
            try SessionRecord.fetchOne(
                db, sql: "SELECT * FROM admin_session WHERE token_hash = ? AND last_seen_at > ?", arguments: [tokenHash, idleSince])
        }
        guard var session = found else { return nil }
        if session.lastSeenAt < touchAfter {
            try await database.write { db in
                try db.execute(sql: "UPDATE admin_session SET last_seen_at = ? WHERE token_hash = ?", arguments: [now, tokenHash])
            }
            session.lastSeenAt = now
        }
        return session
    }

    func delete(tokenHash: String) async throws {
        try await database.write { try $0.execute(sql: "DELETE FROM admin_session WHERE token_hash = ?", arguments: [tokenHash]) }
    }

    func deleteAll(operatorID: String, except: String?) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM admin_session WHERE operator_id = ? AND token_hash IS NOT ?", arguments: [operatorID, except])
            return db.changesCount
        }
    }

    func recordFailure(keys: [String], at time: Int64) async throws {
        try await database.write { db in
            for key in keys { try db.execute(sql: "INSERT INTO sign_in_failure (key, at) VALUES (?, ?)", arguments: [key, time]) }
            // Only the last window counts: older rows go as new ones come.
            try db.execute(sql: "DELETE FROM sign_in_failure WHERE at < ?", arguments: [time - 86_400_000])
        }
    }

    func failures(keys: [String], since: Int64) async throws -> Int {
        try await database.read { db in
            try keys.map { key in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sign_in_failure WHERE key = ? AND at >= ?", arguments: [key, since]) ?? 0
            }.max() ?? 0
        }
    }
}
