import PostgresNIO
import PostgresStorage
import ServiceKit

/// `UserStore` on PostgreSQL (`app_user`).
struct PostgresUserStore: UserStore {
    let pool: PostgresPool

    func user(id: String, appID: String) async throws -> UserRecord? {
        try await pool.read { try await Self.user($0, id: id, appID: appID, logger: pool.logger) }
    }

    static func user(_ connection: PostgresConnection, id: String, appID: String, logger: Logger, forUpdate: Bool = false) async throws -> UserRecord?
    {
        try await connection.record(
            UserRecord.self, "SELECT * FROM app_user WHERE id = \(id) AND app_id = \(appID) \(unescaped: forUpdate ? "FOR UPDATE" : "")",
            logger: logger
        )
    }

    func user(email: String, appID: String) async throws -> UserRecord? {
        try await pool.read {
            try await $0.record(
                UserRecord.self, "SELECT * FROM app_user WHERE app_id = \(appID) AND email_key = \(email.lowercased())", logger: pool.logger)
        }
    }

    func users(ids: [String], appID: String) async throws -> [UserRecord] {
        guard !ids.isEmpty else { return [] }
        return try await pool.read {
            try await $0.records(UserRecord.self, "SELECT * FROM app_user WHERE app_id = \(appID) AND id = ANY(\(ids))", logger: pool.logger)
        }
    }

    func provider(of user: UserRecord) async throws -> String {
        guard user.passwordHash == nil else { return "email" }
        return try await pool.read {
            try await $0.value(String.self, "SELECT provider FROM social_identity WHERE user_id = \(user.id) LIMIT 1", logger: pool.logger) ?? "email"
        }
    }

    func isNickTaken(_ nick: String, appID: String) async throws -> Bool {
        try await pool.read {
            try await $0.count("SELECT 1 FROM app_user WHERE app_id = \(appID) AND nick_key = \(nick.lowercased()) LIMIT 1", logger: pool.logger) > 0
        }
    }

    func search(nick query: String, appID: String, limit: Int) async throws -> [UserRecord] {
        let key = query.lowercased()
        let escaped = LikePattern.escaped(key)
        let (anywhere, prefix) = ("%" + escaped + "%", escaped + "%")
        return try await pool.read {
            try await $0.records(
                UserRecord.self,
                """
                SELECT * FROM app_user WHERE app_id = \(appID) AND nick_key LIKE \(anywhere) ESCAPE '\\'
                ORDER BY (nick_key LIKE \(prefix) ESCAPE '\\') DESC, nick_key LIMIT \(limit)
                """, logger: pool.logger)
        }
    }
}
