import PostgresNIO
import PostgresStorage
import ServiceKit

/// `ThemeStore` on PostgreSQL.
struct PostgresThemeStore: ThemeStore {
    let pool: PostgresPool

    func insert(_ theme: ThemeRecord) async throws {
        try await pool.client.query(
            """
            INSERT INTO theme (id, app_id, user_id, name, description, image, is_public, created_at, updated_at)
            VALUES (\(theme.id), \(theme.appID), \(theme.userID), \(theme.name), \(theme.description), \(theme.image), \(theme.isPublic),
                    \(theme.createdAt), \(theme.updatedAt))
            """, logger: pool.logger)
    }

    func update(_ theme: ThemeRecord) async throws {
        try await pool.client.query(
            """
            UPDATE theme SET name = \(theme.name), description = \(theme.description), image = \(theme.image), is_public = \(theme.isPublic),
            updated_at = \(theme.updatedAt) WHERE id = \(theme.id)
            """, logger: pool.logger)
    }

    func delete(_ theme: ThemeRecord) async throws {
        try await pool.client.query("DELETE FROM theme WHERE id = \(theme.id)", logger: pool.logger)
    }

    func theme(id: String, appID: String) async throws -> ThemeRecord? {
        try await pool.read {
            try await $0.rows("SELECT * FROM theme WHERE id = \(id) AND app_id = \(appID)", logger: pool.logger, ThemeRecord.init).first
        }
    }

    func page(_ query: ThemeQuery) async throws -> (themes: [ThemeRecord], total: Int) {
        var statement = PostgresStatement()
        var conditions = query.scope.postgresConditions(appID: query.appID, hidden: query.hidden, &statement)
        if !query.takenDown.isEmpty { conditions.append("NOT id = ANY(\(statement.bind(query.takenDown.sorted())))") }
        let filter = conditions.joined(separator: " AND ")
        let count = statement.query("SELECT COUNT(*) FROM theme WHERE \(filter)")
        let sql =
            "SELECT * FROM theme WHERE \(filter) ORDER BY created_at DESC, seq DESC LIMIT \(statement.bind(query.page.size)) OFFSET \(statement.bind(query.page.offset))"
        return try await pool.read { connection in
            let total = try await connection.value(Int.self, count, logger: pool.logger) ?? 0
            return (try await connection.rows(statement.query(sql), logger: pool.logger, ThemeRecord.init), total)
        }
    }
}

extension ThemeRecord {
    /// A row of `theme`.
    init(_ row: PostgresRandomAccessRow) throws {
        try self.init(
            id: row.value("id"), appID: row.value("app_id"), userID: row.value("user_id"), name: row.value("name"),
            description: row.value("description"), image: row.value("image"), isPublic: row.value("is_public"),
            createdAt: row.value("created_at"), updatedAt: row.value("updated_at"))
    }
}
