import GRDB
import ServiceKit

/// `UserAdminStore` on auth-svc's file.
struct SQLiteUserAdminStore: UserAdminStore {
    let database: any DatabaseWriter

    func search(_ text: String, appID: String, limit: Int) async throws -> [UserRecord] {
        let key = LikePattern.escaped(text.lowercased())
        return try await database.read { db in
            try UserRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM user WHERE app_id = ? AND (id = ? OR email_key LIKE ? ESCAPE '\\' OR nick_key LIKE ? ESCAPE '\\')
                    ORDER BY (id = ?) DESC, created_at DESC LIMIT ?
                    """, arguments: [appID, text, key + "%", "%" + key + "%", text, limit])
        }
    }

    func sessions(of userID: String, limit: Int) async throws -> [SessionRecord] {
        try await database.read { db in
            try SessionRecord.fetchAll(
                db, sql: "SELECT * FROM session WHERE user_id = ? ORDER BY created_at DESC LIMIT ?", arguments: [userID, limit])
        }
    }

    func reports(by userID: String, limit: Int) async throws -> [QueuedReport] {
        try await database.read { db in
            try QueuedReport.fetchAll(
                db, sql: "SELECT * FROM report WHERE reporter_id = ? ORDER BY created_at DESC LIMIT ?", arguments: [userID, limit])
        }
    }

    func reports(against userID: String, appID: String, limit: Int) async throws -> [QueuedReport] {
        try await database.read { db in
            try QueuedReport.fetchAll(
                db,
                sql: "SELECT * FROM report WHERE app_id = ? AND target_type = 'user' AND target_id = ? ORDER BY created_at DESC LIMIT ?",
                arguments: [appID, userID, limit])
        }
    }
}
