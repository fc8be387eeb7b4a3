import GRDB
import PostgresNIO
import PostgresStorage
import ServiceKit

/// Where a service's records name stored files: one column of one table (a path, or a JSON list
/// of paths) and the app each row belongs to — the one rule, run on either engine, for whatever
/// must find every file of a deployment (moving them into a bucket). The names are constants of
/// the services, never input.
package struct FileReference: Sendable {
    /// The files' area (`posts`, `profiles`, …).
    package var area: String
    /// A table, or a join; `postgresFrom` where PostgreSQL names the table differently.
    package var from: String
    package var postgresFrom: String?
    package var appColumn: String
    package var column: String
    /// The column holds a JSON list of paths rather than one path.
    package var isList: Bool

    package init(area: String, from: String, postgresFrom: String? = nil, appColumn: String = "app_id", column: String, isList: Bool) {
        (self.area, self.from, self.postgresFrom, self.appColumn, self.column, self.isList) = (area, from, postgresFrom, appColumn, column, isList)
    }

    /// Every path the column names, with its app.
    package func paths(on engine: StoreEngine) async throws -> [(appID: String, path: String)] {
        let select = "SELECT \(appColumn) AS app, \(column) AS value FROM"
        let rows: [(String, String)]
        switch engine {
        case .sqlite(let database):
            let sql = "\(select) \(from) WHERE \(column) IS NOT NULL"
            rows = try await database.read { db in try Row.fetchAll(db, sql: sql).map { ($0["app"], $0["value"]) } }
        case .postgres(let pool):
            let sql = "\(select) \(postgresFrom ?? from) WHERE \(column) IS NOT NULL"
            rows = try await pool.read { connection in
                try await connection.rows(PostgresQuery(unsafeSQL: sql), logger: pool.logger) { row in
                    (try row.value("app", as: String.self), try row.value("value", as: String.self))
                }
            }
        }
        return rows.flatMap { app, value in
            (isList ? JSONText.strings(value) ?? [] : [value]).filter { !$0.isEmpty }.map { (app, $0) }
        }
    }
}
