import Contracts
import GRDB
import PostgresNIO
import PostgresStorage
import ServiceKit

/// Rows per UTC day, for the operators' overview: the one rule (the table, its app column and
/// its time column, milliseconds) given once and run on either engine. The names are the
/// caller's constants, never input; the app and the time are bound.
package struct DailyActivity: Sendable {
    /// A table, or a join (`chat JOIN room ON room.id = chat.room_id`).
    package var from: String
    package var appColumn: String
    package var timeColumn: String

    package init(from: String, appColumn: String, timeColumn: String) {
        (self.from, self.appColumn, self.timeColumn) = (from, appColumn, timeColumn)
    }

    /// Rows per day number (days since 1970, UTC) since `since`, of the app (nil: every app).
    package func counts(on engine: StoreEngine, appID: String?, since: Int64) async throws -> [Int64: Int] {
        // Two statements rather than `? IS NULL OR app = ?`, which no index serves.
        let select = "SELECT \(timeColumn) / 86400000 AS day, count(*) AS n FROM \(from) WHERE"
        let group = "\(timeColumn) >= ? GROUP BY day"
        switch engine {
        case .sqlite(let database):
            return try await database.read { db in
                let rows =
                    try appID.map { try Row.fetchAll(db, sql: "\(select) \(appColumn) = ? AND \(group)", arguments: [$0, since]) }
                    ?? Row.fetchAll(db, sql: "\(select) \(group)", arguments: [since])
                return Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
            }
        case .postgres(let pool):
            let query: PostgresQuery =
                if let appID {
                    "\(unescaped: select) \(unescaped: appColumn) = \(appID) AND \(unescaped: timeColumn) >= \(since) GROUP BY day"
                } else {
                    "\(unescaped: select) \(unescaped: timeColumn) >= \(since) GROUP BY day"
                }
            return try await pool.read { connection in
                Dictionary(
                    uniqueKeysWithValues: try await connection.rows(query, logger: pool.logger) { row in
                        (try row.value("day", as: Int64.self), Int(try row.value("n", as: Int64.self)))
                    })
            }
        }
    }

    /// The last `days` of it, oldest first, days without rows at 0.
    package func series(on engine: StoreEngine, appID: String?, days: Int) async throws -> [DailyCount] {
        guard (1...90).contains(days) else { throw ServiceError.badRequest("days must be 1 to 90") }
        let today = ActivityQuery.day(GlintDate.nowMilliseconds())
        let counts = try await counts(on: engine, appID: appID, since: (today - Int64(days) + 1) * 86_400_000)
        return DailyCount.series(counts, days: days, today: today)
    }
}
