import GRDB
import PostgresNIO
import PostgresStorage

/// An author's newest rows of an app, for the operators' content by author: the one rule (the
/// table, its id, author, app and time columns) given once and run on either engine. The names
/// are the caller's constants, never input; the author, the app and the limit are bound. Each
/// table has an index on (author, time).
package struct AuthoredRows: Sendable {
    /// A table, or a join (`chat JOIN room ON room.id = chat.room_id`).
    package var from: String
    package var idColumn: String
    package var authorColumn: String
    package var appColumn: String
    package var timeColumn: String

    package init(from: String, idColumn: String = "id", authorColumn: String, appColumn: String = "app_id", timeColumn: String = "created_at") {
        (self.from, self.idColumn, self.authorColumn, self.appColumn, self.timeColumn) = (from, idColumn, authorColumn, appColumn, timeColumn)
    }

    /// The ids of the author's newest `limit` rows of the app, newest first.
    package func newest(on engine: StoreEngine, authorID: String, appID: String, limit: Int) async throws -> [String] {
        let select = "SELECT \(idColumn) AS id FROM \(from) WHERE \(authorColumn) ="
        let order = "ORDER BY \(timeColumn) DESC LIMIT"
        switch engine {
        case .sqlite(let database):
            return try await database.read { db in
                try String.fetchAll(db, sql: "\(select) ? AND \(appColumn) = ? \(order) ?", arguments: [authorID, appID, limit])
            }
        case .postgres(let pool):
            let query: PostgresQuery = "\(unescaped: select) \(authorID) AND \(unescaped: appColumn) = \(appID) \(unescaped: order) \(limit)"
            return try await pool.read { connection in
                try await connection.rows(query, logger: pool.logger) { row in try row.value("id", as: String.self) }
            }
        }
    }
}
