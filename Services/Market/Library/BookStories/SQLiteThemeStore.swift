import GRDB
import SQLiteStorage
import ServiceKit

/// `ThemeStore` on market-svc's SQLite file.
struct SQLiteThemeStore: ThemeStore {
    let database: any DatabaseWriter

    func insert(_ theme: ThemeRecord) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO theme (id, app_id, user_id, name, description, image, is_public, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    theme.id, theme.appID, theme.userID, theme.name, theme.description, theme.image, theme.isPublic,
                    theme.createdAt, theme.updatedAt,
                ])
        }
    }

    func update(_ theme: ThemeRecord) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE theme SET name = ?, description = ?, image = ?, is_public = ?, updated_at = ? WHERE id = ?",
                arguments: [theme.name, theme.description, theme.image, theme.isPublic, theme.updatedAt, theme.id])
        }
    }

    func delete(_ theme: ThemeRecord) async throws {
        try await database.write { db in try db.execute(sql: "DELETE FROM theme WHERE id = ?", arguments: [theme.id]) }
    }

    func theme(id: String, appID: String) async throws -> ThemeRecord? {
        try await database.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM theme WHERE id = ? AND app_id = ?"), arguments: [id, appID]).map(
                ThemeRecord.init(row:))
        }
    }

    func page(_ query: ThemeQuery) async throws -> (themes: [ThemeRecord], total: Int) {
        var (conditions, arguments) = query.scope.sqlConditions(appID: query.appID, hidden: query.hidden)
        if !query.takenDown.isEmpty {
            conditions.append("id NOT IN (SELECT value FROM json_each(?))")
            arguments += [JSONText.encode(query.takenDown.sorted())]
        }
        let filter = conditions.joined(separator: " AND ")
        return try await database.read { [arguments] db in
            let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM theme WHERE \(filter)"), arguments: arguments) ?? 0
            let themes = try Row.decodeAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM theme WHERE \(filter) ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?
                        """), arguments: arguments + [query.page.size, query.page.offset], ThemeRecord.init(row:))
            return (themes, total)
        }
    }
}
