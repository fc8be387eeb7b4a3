import Contracts
import Foundation
import GRDB
import SQLiteStorage
import ServiceKit

extension UserRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"
}

/// `UserStore` on auth-svc's SQLite file.
struct SQLiteUserStore: UserStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func user(id: String, appID: String) async throws -> UserRecord? {
        try lookups.readNow { db in try Self.user(db, id: id, appID: appID) }
    }

    // Hot lookups use cached prepared statements: building SQL through the query interface
    // on every request cost more than the query itself.
    static func user(_ db: Database, id: String, appID: String) throws -> UserRecord? {
        try UserRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE id = ? AND app_id = ?"), arguments: [id, appID])
    }

    func user(email: String, appID: String) async throws -> UserRecord? {
        try lookups.readNow { db in
            try UserRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM user WHERE app_id = ? AND email_key = ?"), arguments: [appID, email.lowercased()])
        }
    }

    func users(ids: [String], appID: String) async throws -> [UserRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { db in
            // The ids as one JSON argument: one statement text, prepared once per connection (and
            // GRDB's `StatementArguments` of a `[String]` builds a key path at run time on every call).
            // `+app_id`: the ids' lookups, not a walk of the app's index.
            try UserRecord.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM user WHERE id IN (SELECT value FROM json_each(?)) AND +app_id = ?"),
                arguments: [JSONText.encode(ids), appID])
        }
    }

    func provider(of user: UserRecord) async throws -> String {
        guard user.passwordHash == nil else { return "email" }
        return try await database.read { db in
            try String.fetchOne(db, sql: "SELECT provider FROM social_identity WHERE user_id = ? LIMIT 1", arguments: [user.id]) ?? "email"
        }
    }

    func isNickTaken(_ nick: String, appID: String) async throws -> Bool {
        try lookups.readNow { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM user WHERE app_id = ? AND nick_key = ?)"),
                arguments: [appID, nick.lowercased()]) ?? false
        }
    }

    func search(nick query: String, appID: String, limit: Int) async throws -> [UserRecord] {
        let key = query.lowercased()
        let escaped = LikePattern.escaped(key)
        return try await database.read { db in
            try UserRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM user WHERE app_id = ? AND nick_key LIKE ? ESCAPE '\\'
                    ORDER BY (nick_key LIKE ? ESCAPE '\\') DESC, nick_key LIMIT ?
                    """, arguments: [appID, "%" + escaped + "%", escaped + "%", limit])
        }
    }
}
