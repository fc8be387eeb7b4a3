import GRDB
import SQLiteStorage
import ServiceKit

/// `OperatorStore` on admin-svc's file.
struct SQLiteOperatorStore: OperatorStore {
    let database: any DatabaseWriter

    func insert(_ record: OperatorRecord) async throws {
        do {
            try await database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO admin_operator (id, email, password_hash, totp_secret, role, apps, last_totp_step, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        record.id, record.email, record.passwordHash, record.totpSecret, record.role.rawValue, record.apps, record.lastTOTPStep,
                        record.createdAt,
                    ])
            }
        } catch let error as DatabaseError where error.isUniqueViolation {
            throw ServiceError(.conflict, "an operator with that email exists")
        }
    }

    func find(email: String) async throws -> OperatorRecord? {
        try await database.read { try OperatorRecord.fetchOne($0, sql: "SELECT * FROM admin_operator WHERE email = ?", arguments: [email]) }
    }

    func find(id: String) async throws -> OperatorRecord? {
        try await database.read { try OperatorRecord.fetchOne($0, sql: "SELECT * FROM admin_operator WHERE id = ?", arguments: [id]) }
    }

    func all() async throws -> [OperatorRecord] {
        try await database.read { try OperatorRecord.fetchAll($0, sql: "SELECT * FROM admin_operator ORDER BY email") }
    }

    func update(_ record: OperatorRecord) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE admin_operator SET role = ?, apps = ?, totp_secret = ?, last_totp_step = ? WHERE id = ?",
                arguments: [record.role.rawValue, record.apps, record.totpSecret, record.lastTOTPStep, record.id])
            return db.changesCount == 1
        }
    }

    func setPassword(hash: String, at time: Int64, for operatorID: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE admin_operator SET password_hash = ?, password_changed_at = ? WHERE id = ?", arguments: [hash, time, operatorID])
            return db.changesCount == 1
        }
    }

    func delete(id: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM admin_operator WHERE id = ?", arguments: [id])
            return db.changesCount == 1
        }
    }

    func accept(step: Int64, for operatorID: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE admin_operator SET last_totp_step = ? WHERE id = ? AND last_totp_step < ?", arguments: [step, operatorID, step])
            return db.changesCount == 1
        }
    }
}
