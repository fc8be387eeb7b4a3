import GRDB

/// `ReportQueueStore` on auth-svc's file.
struct SQLiteReportQueueStore: ReportQueueStore {
    let database: any DatabaseWriter

    func reports(appID: String, open: Bool, targetType: String?, limit: Int) async throws -> [QueuedReport] {
        try await database.read { db in
            try QueuedReport.fetchAll(
                db,
                sql: """
                    SELECT * FROM report WHERE app_id = ? AND (closed_at IS NULL) = ? AND (? IS NULL OR target_type = ?)
                    ORDER BY created_at, id LIMIT ?
                    """, arguments: [appID, open, targetType, targetType, limit])
        }
    }

    func openSummary(appID: String) async throws -> (targets: Int, oldest: Int64?) {
        try await database.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*), min(oldest) FROM (
                        SELECT min(created_at) AS oldest FROM report WHERE app_id = ? AND closed_at IS NULL GROUP BY target_type, target_id)
                    """, arguments: [appID])
            return (row?[0] ?? 0, row?[1])
        }
    }

    func close(appID: String, targetType: String, targetID: String, action: String, operatorID: String, at time: Int64) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: """
                    UPDATE report SET closed_at = ?, action = ?, closed_by = ?
                    WHERE app_id = ? AND target_type = ? AND target_id = ? AND closed_at IS NULL
                    """, arguments: [time, action, operatorID, appID, targetType, targetID])
            return db.changesCount
        }
    }
}
