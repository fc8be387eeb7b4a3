import GRDB
import ServiceKit

/// `AuditStore` on admin-svc's file.
struct SQLiteAuditStore: AuditStore {
    let database: any DatabaseWriter

    func append(_ record: AuditRecord) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO audit_entry (id, at, operator_id, operator_email, address, action, app_id, target_kind, target_id, before, after, request_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.id, record.at, record.operatorID, record.operatorEmail, record.address, record.action, record.appID, record.targetKind,
                    record.targetID, record.before, record.after, record.requestID,
                ])
        }
    }

    func entries(_ query: AuditQuery) async throws -> [AuditRecord] {
        var conditions: [String] = []
        var arguments = StatementArguments()
        if let apps = query.apps {
            conditions.append("app_id IN (SELECT value FROM json_each(?))")
            _ = arguments.append(contentsOf: [JSONText.encode(apps)])
        }
        for (column, value) in [("app_id", query.appID), ("operator_id", query.operatorID), ("action", query.action)] {
            guard let value else { continue }
            conditions.append("\(column) = ?")
            _ = arguments.append(contentsOf: [value])
        }
        if let before = query.before {
            conditions.append("at < ?")
            _ = arguments.append(contentsOf: [before])
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        _ = arguments.append(contentsOf: [query.limit])
        let bound = arguments
        return try await database.read { db in
            try AuditRecord.fetchAll(
                db, sql: "SELECT * FROM audit_entry \(filter) ORDER BY at DESC, id DESC LIMIT ?", arguments: bound)
        }
    }
}
