import Logging
import PostgresNIO
import ServiceKit

/// Reads the stores on PostgreSQL make on every page: records by their `CodingKeys`, single
/// columns, and whether a statement touched anything.
extension PostgresConnection {
    package func records<Record: Decodable>(_ type: Record.Type, _ query: PostgresQuery, logger: Logger) async throws -> [Record] {
        try await PostgresRecordDecoder.decodeAll(type, from: self.query(query, logger: logger))
    }

    package func record<Record: Decodable>(_ type: Record.Type, _ query: PostgresQuery, logger: Logger) async throws -> Record? {
        try await records(type, query, logger: logger).first
    }

    package func values<Value: PostgresDecodable & Sendable>(_ type: Value.Type, _ query: PostgresQuery, logger: Logger) async throws -> [Value] {
        var values: [Value] = []
        for try await value in try await self.query(query, logger: logger).decode(type) { values.append(value) }
        return values
    }

    package func value<Value: PostgresDecodable & Sendable>(_ type: Value.Type, _ query: PostgresQuery, logger: Logger) async throws -> Value? {
        try await values(type, query, logger: logger).first
    }

    /// Rows read by a record type's own initializer (one that is not `Decodable`, or whose
    /// columns are not its properties), as GRDB's `Row` initializers on SQLite.
    package func rows<Record>(_ query: PostgresQuery, logger: Logger, _ make: (PostgresRandomAccessRow) throws -> Record) async throws -> [Record] {
        var records: [Record] = []
        for try await row in try await self.query(query, logger: logger) { records.append(try make(row.makeRandomAccess())) }
        return records
    }

    /// Runs a statement ending in `RETURNING 1`: how many rows it touched.
    package func count(_ query: PostgresQuery, logger: Logger) async throws -> Int {
        try await values(Int32.self, query, logger: logger).count
    }
}

extension PSQLError {
    /// A unique or primary-key constraint refused the write (SQLSTATE 23505).
    package var isUniqueViolation: Bool { serverInfo?[.sqlState] == "23505" }

    /// A foreign key refused the write: its row went (or is still referenced), SQLSTATE 23503.
    package var isForeignKeyViolation: Bool { serverInfo?[.sqlState] == "23503" }
}

extension PostgresRandomAccessRow {
    /// The column's value (`row.value("id")`, as GRDB's `row["id"]`).
    package func value<Value: PostgresDecodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        try self[column].decode(Value.self)
    }
}
