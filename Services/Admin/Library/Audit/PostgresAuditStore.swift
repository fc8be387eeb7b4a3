import PostgresStorage

/// `AuditStore` on PostgreSQL.
struct PostgresAuditStore: AuditStore {
    let pool: PostgresPool

    func append(_ record: AuditRecord) async throws {
        try await pool.transaction { connection in
            _ = try await connection.query(
                """
                INSERT INTO audit_entry (id, at, operator_id, operator_email, address, action, app_id, target_kind, target_id, before, after, request_id)
                VALUES (\(record.id), \(record.at), \(record.operatorID), \(record.operatorEmail), \(record.address), \(record.action), \(record.appID),
                    \(record.targetKind), \(record.targetID), \(record.before), \(record.after), \(record.requestID))
                """, logger: pool.logger)
        }
    }

    func entries(_ query: AuditQuery) async throws -> [AuditRecord] {
        var statement = PostgresStatement()
        var conditions: [String] = []
        if let apps = query.apps { conditions.append("app_id = ANY(\(statement.bind(apps)))") }
        for (column, value) in [("app_id", query.appID), ("operator_id", query.operatorID), ("action", query.action)] {
            guard let value else { continue }
            conditions.append("\(column) = \(statement.bind(value))")
        }
        if let before = query.before { conditions.append("at < \(statement.bind(before))") }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT * FROM audit_entry \(filter) ORDER BY at DESC, id DESC LIMIT \(statement.bind(query.limit))"
        return try await pool.read { try await $0.records(AuditRecord.self, statement.query(sql), logger: pool.logger) }
    }
}
