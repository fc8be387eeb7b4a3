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

    func openSummary(appID: String) async throws -> (targets: Int, oldest: Int64?) {
        try await pool.read { connection in
            let rows = try await connection.rows(
                """
                SELECT count(*) AS n, min(oldest) AS oldest FROM (
                    SELECT min(created_at) AS oldest FROM report WHERE app_id = \(appID) AND closed_at IS NULL GROUP BY target_type, target_id
                ) AS targets
                """, logger: pool.logger
            ) { row in (Int(try row.value("n", as: Int64.self)), try row.value("oldest", as: Int64?.self)) }
            return rows.first ?? (0, nil)
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
