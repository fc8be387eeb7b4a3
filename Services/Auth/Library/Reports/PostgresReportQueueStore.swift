import PostgresStorage

/// `ReportQueueStore` on PostgreSQL.
struct PostgresReportQueueStore: ReportQueueStore {
    let pool: PostgresPool

    func reports(appID: String, open: Bool, targetType: String?, limit: Int) async throws -> [QueuedReport] {
        try await pool.read {
            try await $0.records(
                QueuedReport.self,
                """
                SELECT * FROM report WHERE app_id = \(appID) AND (closed_at IS NULL) = \(open) AND (\(targetType)::text IS NULL OR target_type = \(targetType))
                ORDER BY created_at, id LIMIT \(limit)
                """, logger: pool.logger)
        }
    }

    func close(appID: String, targetType: String, targetID: String, action: String, operatorID: String, at time: Int64) async throws -> Int {
        try await pool.transaction { connection in
            try await connection.values(
                String.self,
                """
                UPDATE report SET closed_at = \(time), action = \(action), closed_by = \(operatorID)
                WHERE app_id = \(appID) AND target_type = \(targetType) AND target_id = \(targetID) AND closed_at IS NULL RETURNING id
                """, logger: pool.logger
            ).count
        }
    }
}
