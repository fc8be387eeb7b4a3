import GRDB

extension DatabaseError {
    /// A unique key or primary key refused the write: the schema's rule (the same key on both
    /// engines, `SchemaParityTests`) answers, not a read before the write.
    package var isUniqueViolation: Bool {
        extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
    }
}
