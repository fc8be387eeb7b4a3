import GRDB
import ServiceKit

/// `UserAdminStore` on auth-svc's file.
struct SQLiteUserAdminStore: UserAdminStore {
    let database: any DatabaseWriter

    func search(_ text: String, by mode: UserSearchMode, appID: String, limit: Int) async throws -> [UserRecord] {
        let key = text.lowercased()
        return try await database.read { db in
            switch mode {
            case .id:
                return try UserRecord.fetchAll(db, sql: "SELECT * FROM user WHERE app_id = ? AND id = ?", arguments: [appID, text])
            case .emailPrefix:
                // A range on the (app, email) index: every key that starts with the text.
                return try UserRecord.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM user WHERE app_id = ? AND email_key <> '' AND email_key >= ? AND email_key < ?
                        ORDER BY created_at DESC LIMIT ?
                        """, arguments: [appID, key, key + "\u{10FFFF}", limit])
            case .any:
                let pattern = LikePattern.escaped(key)
                return try UserRecord.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM user WHERE app_id = ? AND (id = ? OR email_key LIKE ? ESCAPE '\\' OR nick_key LIKE ? ESCAPE '\\')
                        ORDER BY (id = ?) DESC, created_at DESC LIMIT ?
                        """, arguments: [appID, text, pattern + "%", "%" + pattern + "%", text, limit])
            }
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

    func activity(appID: String?, since: Int64) async throws -> (total: Int, new: [Int64: Int], active: [Int64: Int]) {
        try await database.read { db in
            func days(_ sql: String, _ arguments: StatementArguments) throws -> [Int64: Int] {
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: sql, arguments: arguments).map { ($0[0], $0[1]) })
            }
            // The app's condition is written in or left out (every app): `? IS NULL OR …` no index serves.
            let app = appID == nil ? "" : "app_id = ? AND"
            let scoped = { (values: [any DatabaseValueConvertible]) -> StatementArguments in
                StatementArguments(appID.map { [$0] + values } ?? values) ?? []
            }
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM user WHERE \(app) 1", arguments: scoped([])) ?? 0
            let new = try days(
                "SELECT created_at / 86400000 AS day, count(*) FROM user WHERE \(app) created_at >= ? GROUP BY day", scoped([since]))
            let active = try days(
                """
                SELECT day, count(DISTINCT user_id) FROM (
                    SELECT user_id, created_at / 86400000 AS day FROM session WHERE \(app) created_at >= ?
                    UNION ALL
                    SELECT user_id, refresh_rotated_at / 86400000 FROM session WHERE \(app.isEmpty ? "" : "app_id = ? AND") refresh_rotated_at >= ?
                ) GROUP BY day
                """, StatementArguments(appID.map { [$0, since, $0, since] } ?? [since, since]) ?? [])
            return (total, new, active)
        }
    }
}
