import PostgresNIO
import PostgresStorage
import ServiceKit

/// `OperatorStore` on PostgreSQL.
struct PostgresOperatorStore: OperatorStore {
    let pool: PostgresPool

    func insert(_ record: OperatorRecord) async throws {
        do {
            try await pool.transaction { connection in
                _ = try await connection.query(
                    """
                    INSERT INTO admin_operator (id, email, password_hash, totp_secret, role, apps, last_totp_step, created_at)
                    VALUES (\(record.id), \(record.email), \(record.passwordHash), \(record.totpSecret), \(record.role.rawValue), \(record.apps),
                        \(record.lastTOTPStep), \(record.createdAt))
                    """, logger: pool.logger)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw ServiceError(.conflict, "an operator with that email exists")
        }
    }

    func find(email: String) async throws -> OperatorRecord? {
        try await pool.read { try await $0.record(OperatorRecord.self, "SELECT * FROM admin_operator WHERE email = \(email)", logger: pool.logger) }
    }

    func find(id: String) async throws -> OperatorRecord? {
        try await pool.read { try await $0.record(OperatorRecord.self, "SELECT * FROM admin_operator WHERE id = \(id)", logger: pool.logger) }
    }

    func all() async throws -> [OperatorRecord] {
        try await pool.read { try await $0.records(OperatorRecord.self, "SELECT * FROM admin_operator ORDER BY email", logger: pool.logger) }
    }

    func update(_ record: OperatorRecord) async throws -> Bool {
        try await pool.transaction { connection in
            try await connection.value(
                String.self,
                """
                UPDATE admin_operator SET role = \(record.role.rawValue), apps = \(record.apps), totp_secret = \(record.totpSecret),
                    last_totp_step = \(record.lastTOTPStep) WHERE id = \(record.id) RETURNING id
                """, logger: pool.logger) != nil
        }
    }

    func setPassword(hash: String, at time: Int64, for operatorID: String) async throws -> Bool {
        try await pool.transaction { connection in
            try await connection.value(
                String.self,
                "UPDATE admin_operator SET password_hash = \(hash), password_changed_at = \(time) WHERE id = \(operatorID) RETURNING id",
                logger: pool.logger) != nil
        }
    }

    func delete(id: String) async throws -> Bool {
        try await pool.transaction { connection in
            try await connection.value(String.self, "DELETE FROM admin_operator WHERE id = \(id) RETURNING id", logger: pool.logger) != nil
        }
    }

    func accept(step: Int64, for operatorID: String) async throws -> Bool {
        try await pool.transaction { connection in
            try await connection.value(
                String.self, "UPDATE admin_operator SET last_totp_step = \(step) WHERE id = \(operatorID) AND last_totp_step < \(step) RETURNING id",
                logger: pool.logger) != nil
        }
    }
}
