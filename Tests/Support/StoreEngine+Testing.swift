import GRDB
import PostgresNIO
import ServiceKit
import Storage

/// What tests do behind a service's back (an operator's fix, a look at the outbox), on whichever
/// engine the run's store is: plain SQL both engines read alike.
extension StoreEngine {
    package var isPostgres: Bool {
        if case .postgres = self { true } else { false }
    }

    /// One column of what `sql` selects.
    package func values<Value: DatabaseValueConvertible & PostgresDecodable & Sendable>(_ type: Value.Type, _ sql: String) async throws -> [Value] {
        switch self {
        case .sqlite(let database):
            return try await database.read { db in try Value.fetchAll(db, sql: sql) }
        case .postgres(let pool):
            return try await pool.read { connection in try await connection.values(Value.self, PostgresQuery(unsafeSQL: sql), logger: pool.logger) }
        }
    }

    package func execute(_ sql: String) async throws {
        switch self {
        case .sqlite(let database):
            try await database.write { db in try db.execute(sql: sql) }
        case .postgres(let pool):
            try await pool.client.query(PostgresQuery(unsafeSQL: sql), logger: pool.logger)
        }
    }
}
