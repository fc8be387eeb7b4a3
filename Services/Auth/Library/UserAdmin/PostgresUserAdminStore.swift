import PostgresStorage
import ServiceKit

/// `UserAdminStore` on PostgreSQL.
struct PostgresUserAdminStore: UserAdminStore {
    let pool: PostgresPool

    func search(_ text: String, appID: String, limit: Int) async throws -> [UserRecord] {
        let key = LikePattern.escaped(text.lowercased())
        let (prefix, contains) = (key + "%", "%" + key + "%")
        return try await pool.read {
            try await $0.records(
                UserRecord.self,
                """
                SELECT * FROM app_user WHERE app_id = \(appID) AND (id = \(text) OR email_key LIKE \(prefix) ESCAPE '\\' OR nick_key LIKE \(contains) ESCAPE '\\')
                ORDER BY (id = \(text)) DESC, created_at DESC LIMIT \(limit)
                """, logger: pool.logger)
        }
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
}
