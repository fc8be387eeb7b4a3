import GRDB
import PostgresNIO
import PostgresStorage
import SQLiteStorage
import ServiceKit

/// A migrated store's schema as both engines can describe it: tables, their columns (nullability
/// and default) and their indexes (columns in order, unique or not; a unique constraint is an
/// index). Types are left out: each engine names them its own way.
package struct SchemaShape: Sendable, Equatable {
    package struct Column: Sendable, Equatable, CustomStringConvertible {
        package var nullable: Bool
        /// The default as written, casts and quotes' type suffixes removed (`'x'::text` → `'x'`,
        /// `false` → `0`); nil when there is none.
        package var defaultValue: String?

        package var description: String { (nullable ? "NULL" : "NOT NULL") + (defaultValue.map { " DEFAULT \($0)" } ?? "") }
    }

    package struct Index: Sendable, Hashable, CustomStringConvertible {
        package var columns: [String]
        package var unique: Bool

        package var description: String { (unique ? "UNIQUE " : "") + "(" + columns.joined(separator: ", ") + ")" }
    }

    package struct Table: Sendable, Equatable {
        package var columns: [String: Column] = [:]
        package var indexes: Set<Index> = []
    }

    package var tables: [String: Table] = [:]

    /// What a migrated SQLite file holds (GRDB's and SQLite's own tables left out).
    package static func of(_ database: some DatabaseReader) async throws -> SchemaShape {
        try await database.read { db in
            var shape = SchemaShape()
            let names = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'
                    """)
            for name in names {
                var table = Table()
                let primaryKey = try db.primaryKey(name).columns
                for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(name.quotedDatabaseIdentifier))") {
                    let column: String = row["name"]
                    // A primary key column is never null, whether or not SQLite was told.
                    let notNull: Bool = row["notnull"] || primaryKey.contains(column)
                    table.columns[column] = Column(nullable: !notNull, defaultValue: normalized(row["dflt_value"]))
                }
                for row in try Row.fetchAll(db, sql: "PRAGMA index_list(\(name.quotedDatabaseIdentifier))") {
                    let index: String = row["name"]
                    let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
                    table.indexes.insert(Index(columns: columns, unique: row["unique"]))
                }
                // A rowid table's INTEGER PRIMARY KEY has no index of its own; PostgreSQL's does.
                if !primaryKey.isEmpty, !table.indexes.contains(where: { $0.columns == primaryKey }) {
                    table.indexes.insert(Index(columns: primaryKey, unique: true))
                }
                shape.tables[name] = table
            }
            return shape
        }
    }

    /// What a migrated PostgreSQL database holds in its `public` schema (the migrations'
    /// bookkeeping left out).
    package static func of(_ pool: PostgresPool) async throws -> SchemaShape {
        var shape = SchemaShape()
        let columns = try await pool.client.query(
            """
            SELECT c.table_name::text, c.column_name::text, c.is_nullable::text, c.column_default::text
            FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
            """, logger: pool.logger)
        for try await (table, column, nullable, defaultValue) in columns.decode((String, String, String, String?).self) {
            shape.tables[table, default: Table()].columns[column] = Column(nullable: nullable == "YES", defaultValue: normalized(defaultValue))
        }
        let indexes = try await pool.client.query(
            """
            SELECT t.relname::text, i.indisunique,
                   array(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n)
            FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace
            WHERE s.nspname = 'public'
            """, logger: pool.logger)
        for try await (table, unique, names) in indexes.decode((String, Bool, [String]).self) {
            shape.tables[table, default: Table()].indexes.insert(Index(columns: names, unique: unique))
        }
        shape.tables["schema_migration"] = nil
        return shape
    }

    /// Where `other` differs from this shape, one line each, leaving out `ignoring` (table
    /// names, `table.column`, or `table (index description)`: differences the engines mean to
    /// have, each with its reason where the test lists it).
    package func differences(from other: SchemaShape, ignoring: Set<String> = []) -> [String] {
        var found: [String] = []
        for name in Set(tables.keys).union(other.tables.keys).sorted() where !ignoring.contains(name) {
            guard let mine = tables[name] else { found.append("\(name): only in the second"); continue }
            guard let theirs = other.tables[name] else { found.append("\(name): only in the first"); continue }
            for column in Set(mine.columns.keys).union(theirs.columns.keys).sorted() where !ignoring.contains("\(name).\(column)") {
                switch (mine.columns[column], theirs.columns[column]) {
                case let (a?, b?) where a != b: found.append("\(name).\(column): \(a) against \(b)")
                case (nil, _?): found.append("\(name).\(column): only in the second")
                case (_?, nil): found.append("\(name).\(column): only in the first")
                default: break
                }
            }
            for index in mine.indexes.symmetricDifference(theirs.indexes).sorted(by: { $0.description < $1.description })
            where !ignoring.contains("\(name) \(index)") {
                found.append("\(name) \(index): only in the \(mine.indexes.contains(index) ? "first" : "second")")
            }
        }
        return found
    }

    /// PostgreSQL's stand-ins for SQLite's rowid (`seq` identities that break ties of one
    /// millisecond, as a rowid does): the column left out where SQLite has none, and from the end
    /// of indexes (every SQLite index ends in the rowid).
    package func withoutRowid(_ names: Set<String>, absentFrom sqlite: SchemaShape) -> SchemaShape {
        var shape = self
        for (name, table) in tables {
            let stand = names.filter { table.columns[$0] != nil && sqlite.tables[name]?.columns[$0] == nil }
            guard !stand.isEmpty else { continue }
            for column in stand { shape.tables[name]?.columns[column] = nil }
            shape.tables[name]?.indexes = Set(
                table.indexes.compactMap { index in
                    var columns = index.columns
                    while let last = columns.last, stand.contains(last) { columns.removeLast() }
                    return columns.isEmpty ? nil : Index(columns: columns, unique: index.unique)
                })
        }
        return shape
    }

    /// A default as both engines would write it; a sequence's next value (PostgreSQL's serial)
    /// is no default, as SQLite's own row numbering is none.
    private static func normalized(_ text: String?) -> String? {
        guard var text, !text.isEmpty, text.uppercased() != "NULL", !text.hasPrefix("nextval(") else { return nil }
        if let cast = text.range(of: "::", options: .backwards), !text[cast.upperBound...].contains("'") { text = String(text[..<cast.lowerBound]) }
        if text.hasPrefix("("), text.hasSuffix(")") { text = String(text.dropFirst().dropLast()) }
        switch text.lowercased() {
        case "false": return "0"
        case "true": return "1"
        default: return text
        }
    }
}

extension SchemaShape {
    /// The differences between a service's two schemas, each freshly migrated (a temporary SQLite
    /// file, a new database of the run's PostgreSQL; a skip where the run has none).
    package static func differences(
        sqlite migrator: DatabaseMigrator, postgres migrations: [PostgresMigration], ignoring: Set<String>,
        rowid: Set<String> = ["seq"], renamed: [String: String] = [:], alteringPostgres alter: [String] = []
    ) async throws -> [String] {
        let (pool, _) = try await TestPostgres.freshDatabase(maximumConnections: 1)
        defer { pool.close() }
        try await pool.migrate(migrations)
        for statement in alter { try await pool.client.query(PostgresQuery(unsafeSQL: statement), logger: pool.logger) }
        let file = try DatabaseFactory.openPool(at: try TestEnvironment.temporaryDirectory() + "/schema.sqlite", migrator: migrator)
        let sqlite = try await of(file)
        var postgres = try await of(pool)
        for (name, sqliteName) in renamed { postgres.tables[sqliteName] = postgres.tables.removeValue(forKey: name) }
        return sqlite.differences(from: postgres.withoutRowid(rowid, absentFrom: sqlite), ignoring: ignoring.union(outbox))
    }

    /// The outbox's due scan: one composite index on SQLite, partial indexes on PostgreSQL
    /// (pending by time, delivered for pruning), where several relays claim rows.
    private static let outbox: Set<String> = [
        "outbox (delivered_at, next_attempt_at)", "outbox (delivered_at)", "outbox (next_attempt_at)",
    ]
}
