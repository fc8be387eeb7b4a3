import Contracts
import Foundation
import GRDB
import ServiceKit

/// Reads of users by the ways other code needs them.
struct UserRepository: Sendable {
    let database: any DatabaseWriter

    func find(id: String, appID: String) async throws -> UserRecord? {
        try await database.read { db in try Self.find(db, id: id, appID: appID) }
    }

    // Hot lookups use cached prepared statements: building SQL through the query interface
    // on every request cost more than the query itself.
    static func find(_ db: Database, id: String, appID: String) throws -> UserRecord? {
        try UserRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE id = ? AND app_id = ?"), arguments: [id, appID])
    }

    func find(email: String, appID: String) async throws -> UserRecord? {
        try await database.read { db in
            try UserRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE app_id = ? AND email_key = ?"), arguments: [appID, email.lowercased()])
        }
    }

    func emailTaken(_ email: String, appID: String) async throws -> Bool {
        try await find(email: email, appID: appID) != nil
    }

    /// Users of one app by id, for rendering `creator`/`sender` in bulk.
    func lookup(ids: [String], appID: String) async throws -> [UserRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { db in
            try UserRecord.filter(ids.contains(UserRecord.Columns.id)).filter(UserRecord.Columns.appID == appID).fetchAll(db)
        }
    }

    /// Nicks containing `query` (case-insensitive), best matches (prefix) first.
    func search(nick query: String, appID: String, limit: Int) async throws -> [UserRecord] {
        let key = query.lowercased()
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        return try await database.read { db in
            try UserRecord.fetchAll(db, sql: """
                SELECT * FROM user WHERE app_id = ? AND nick_key LIKE ? ESCAPE '\\'
                ORDER BY (nick_key LIKE ? ESCAPE '\\') DESC, nick_key LIMIT ?
                """, arguments: [appID, "%" + escaped + "%", escaped + "%", limit])
        }
    }
}
