import PostgresNIO
import PostgresStorage
import ServiceKit

/// `UserAdminStore` on PostgreSQL.
struct PostgresUserAdminStore: UserAdminStore {
    let pool: PostgresPool

    func search(_ text: String, by mode: UserSearchMode, appID: String, limit: Int) async throws -> [UserRecord] {
        let key = LikePattern.escaped(text.lowercased())
        let (prefix, contains) = (key + "%", "%" + key + "%")
        let query: PostgresQuery =
            switch mode {
            case .id: "SELECT * FROM app_user WHERE app_id = \(appID) AND id = \(text)"
            case .emailPrefix:
                """
                SELECT * FROM app_user WHERE app_id = \(appID) AND email_key LIKE \(prefix) ESCAPE '\\' ORDER BY created_at DESC LIMIT \(limit)
                """
            case .any:
                """
                SELECT * FROM app_user WHERE app_id = \(appID) AND (id = \(text) OR email_key LIKE \(prefix) ESCAPE '\\' OR nick_key LIKE \(contains) ESCAPE '\\')
                ORDER BY (id = \(text)) DESC, created_at DESC LIMIT \(limit)
                """
            }
        return try await pool.read { try await $0.records(UserRecord.self, query, logger: pool.logger) }
    }

    func sessions(of userID: String, limit: Int) async throws -> [SessionRecord] {
        try await pool.read {
            try await $0.records(
                SessionRecord.self, "SELECT * FROM session WHERE user_id = \(userID) ORDER BY created_at DESC LIMIT \(limit)", logger: pool.logger)
        }
    }

    func reports(by userID: String, limit: Int) async throws -> [QueuedReport] {
        try await pool.read {
            try await $0.records(
                QueuedReport.self, "SELECT * FROM report WHERE reporter_id = \(userID) ORDER BY created_at DESC LIMIT \(limit)", logger: pool.logger)
        }
    }

    func reports(against userID: String, appID: String, limit: Int) async throws -> [QueuedReport] {
        try await pool.read {
            try await $0.records(
                QueuedReport.self,
                "SELECT * FROM report WHERE app_id = \(appID) AND target_type = 'user' AND target_id = \(userID) ORDER BY created_at DESC LIMIT \(limit)",
                logger: pool.logger)
        }
    }

    func activity(appID: String?, since: Int64) async throws -> (total: Int, new: [Int64: Int], active: [Int64: Int]) {
        try await pool.read { connection in
            func days(_ query: PostgresQuery) async throws -> [Int64: Int] {
                Dictionary(
                    uniqueKeysWithValues: try await connection.rows(query, logger: pool.logger) { row in
                        (try row.value("day", as: Int64.self), Int(try row.value("n", as: Int64.self)))
                    })
            }
            // The app's condition is written in or left out (every app): `$1 IS NULL OR …` no index serves.
            let total: Int64?, new: [Int64: Int], active: [Int64: Int]
            if let appID {
                total = try await connection.value(Int64.self, "SELECT count(*) FROM app_user WHERE app_id = \(appID)", logger: pool.logger)
                new = try await days(
                    """
                    SELECT created_at / 86400000 AS day, count(*) AS n FROM app_user WHERE app_id = \(appID) AND created_at >= \(since)
                    GROUP BY day
                    """)
                active = try await days(
                    """
                    SELECT day, count(DISTINCT user_id) AS n FROM (
                        SELECT user_id, created_at / 86400000 AS day FROM session WHERE app_id = \(appID) AND created_at >= \(since)
                        UNION ALL
                        SELECT user_id, refresh_rotated_at / 86400000 FROM session WHERE app_id = \(appID) AND refresh_rotated_at >= \(since)
                    ) AS opened GROUP BY day
                    """)
            } else {
                total = try await connection.value(Int64.self, "SELECT count(*) FROM app_user", logger: pool.logger)
                new = try await days("SELECT created_at / 86400000 AS day, count(*) AS n FROM app_user WHERE created_at >= \(since) GROUP BY day")
                active = try await days(
                    """
                    SELECT day, count(DISTINCT user_id) AS n FROM (
                        SELECT user_id, created_at / 86400000 AS day FROM session WHERE created_at >= \(since)
                        UNION ALL
                        SELECT user_id, refresh_rotated_at / 86400000 FROM session WHERE refresh_rotated_at >= \(since)
                    ) AS opened GROUP BY day
                    """)
            }
            return (Int(total ?? 0), new, active)
        }
    }
}
