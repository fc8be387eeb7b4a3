import Foundation
import GRDB
import PostgresNIO
import PostgresStorage
import ServiceKit

/// An app's records in one service's store, read out as JSON lines and loaded back, on either
/// engine: the tables' rules (`ExportedTable`) are given once by each service, the SQL for each
/// engine is here. Reads happen in one transaction (one snapshot of the store); a load is one
/// transaction, all of it or nothing.
package enum AppRecords {
    /// The JSON lines of one table: one object per row, keys the columns.
    package struct Lines: Sendable {
        package var table: String
        package var columns: [ExportedColumn]
        package var rows: Int
        package var data: Data

        package init(table: String, columns: [ExportedColumn], rows: Int, data: Data) {
            (self.table, self.columns, self.rows, self.data) = (table, columns, rows, data)
        }
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// Changes a record before it is loaded (the app's row given a new key): its table and its
    /// values by column.
    package typealias Rewrite = @Sendable (String, inout [String: RecordValue]) -> Void

    /// The columns an export takes of `table` on the engine, as the schema declares them.
    package static func columns(of table: ExportedTable, on engine: StoreEngine) async throws -> [ExportedColumn] {
        switch engine {
        case .sqlite(let database): try await database.read { db in try sqliteColumns(db, table) }
        case .postgres(let pool): try await pool.read { connection in try await postgresColumns(connection, table, logger: pool.logger) }
        }
    }

    /// Every table's rows of the app, in one read transaction.
    package static func export(_ tables: [ExportedTable], appID: String, from engine: StoreEngine) async throws -> [Lines] {
        switch engine {
        case .sqlite(let database):
            return try await database.read { db in
                try tables.map { table in
                    let columns = try sqliteColumns(db, table)
                    let sql =
                        "SELECT \(list(columns)) FROM \(table.table) WHERE \(ExportedTable.resolve(table.scope, postgres: false)) ORDER BY rowid"
                    var writer = JSONWriter(capacity: 1 << 16)
                    var rows = 0
                    let cursor = try Row.fetchCursor(db, sql: sql, arguments: [appID])
                    while let row = try cursor.next() {
                        writer.objectStart()
                        for (index, column) in columns.enumerated() {
                            writer.key(column.name)
                            try value(row[index] as DatabaseValue, column, table).write(to: &writer)
                        }
                        writer.objectEnd()
                        writer.newline()
                        rows += 1
                    }
                    return Lines(table: table.table, columns: columns, rows: rows, data: Data(writer.bytes))
                }
            }
        case .postgres(let pool):
            return try await pool.transaction { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: pool.logger)
                var all: [Lines] = []
                for table in tables {
                    let columns = try await postgresColumns(connection, table, logger: pool.logger)
                    var sql = "SELECT \(list(columns)) FROM \(table.name(postgres: true)) WHERE \(ExportedTable.resolve(table.scope, postgres: true))"
                    if let order = table.postgresOrder { sql += " ORDER BY \(order)" }
                    var binds = PostgresBindings()
                    binds.append(appID)
                    var writer = JSONWriter(capacity: 1 << 16)
                    var rows = 0
                    for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: pool.logger) {
                        writer.objectStart()
                        for (column, cell) in zip(columns, row) {
                            writer.key(column.name)
                            try value(cell, column).write(to: &writer)
                        }
                        writer.objectEnd()
                        writer.newline()
                        rows += 1
                    }
                    all.append(Lines(table: table.table, columns: columns, rows: rows, data: Data(writer.bytes)))
                }
                return all
            }
        }
    }

    /// The first column of what `sql` selects, `{app}` bound to `argument` (an app found by its
    /// name, id or mount).
    package static func strings(_ sql: String, _ argument: String, on engine: StoreEngine) async throws -> [String] {
        switch engine {
        case .sqlite(let database):
            return try await database.read { db in try String.fetchAll(db, sql: ExportedTable.resolve(sql, postgres: false), arguments: [argument]) }
        case .postgres(let pool):
            var binds = PostgresBindings()
            binds.append(argument)
            return try await pool.read { connection in
                var found: [String] = []
                let query = PostgresQuery(unsafeSQL: ExportedTable.resolve(sql, postgres: true), binds: binds)
                for try await value in try await connection.query(query, logger: pool.logger).decode(String.self) { found.append(value) }
                return found
            }
        }
    }

    /// How many rows of the app the tables hold.
    package static func count(_ tables: [ExportedTable], appID: String, on engine: StoreEngine) async throws -> Int {
        switch engine {
        case .sqlite(let database):
            return try await database.read { db in
                try tables.reduce(0) { total, table in
                    let sql = "SELECT count(*) FROM \(table.table) WHERE \(ExportedTable.resolve(table.scope, postgres: false))"
                    return total + (try Int.fetchOne(db, sql: sql, arguments: [appID]) ?? 0)
                }
            }
        case .postgres(let pool):
            return try await pool.read { connection in
                var total = 0
                for table in tables {
                    var binds = PostgresBindings()
                    binds.append(appID)
                    let sql = "SELECT count(*) FROM \(table.name(postgres: true)) WHERE \(ExportedTable.resolve(table.scope, postgres: true))"
                    for try await count in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: pool.logger).decode(
                        Int64.self)
                    {
                        total += Int(count)
                    }
                }
                return total
            }
        }
    }

    /// Loads the lines of each table (those of `tables` an export holds, in their order) in one
    /// transaction, then runs what the tables derive; answers the rows loaded per table. A column
    /// the store lacks is refused; one the export lacks takes the store's default.
    package static func load(
        _ tables: [ExportedTable], lines: [String: Lines], appID: String, into engine: StoreEngine, rewrite: Rewrite? = nil
    ) async throws -> [String: Int] {
        switch engine {
        case .sqlite(let database):
            return try await database.write { db in
                var loaded: [String: Int] = [:]
                for table in tables {
                    guard let lines = lines[table.table] else { continue }
                    let columns = try loadedColumns(lines, into: try sqliteColumns(db, table), table)
                    let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                    let statement = try db.makeStatement(sql: "INSERT INTO \(table.table) (\(list(columns))) VALUES (\(placeholders))")
                    loaded[table.table] = try records(lines, columns, table, rewrite) { values in
                        try statement.execute(arguments: StatementArguments(values.map(\.databaseValue)))
                    }
                }
                for statement in tables.flatMap(\.derive) {
                    try db.execute(
                        sql: ExportedTable.resolve(statement, postgres: false), arguments: ExportedTable.namesApp(statement) ? [appID] : [])
                }
                return loaded
            }
        case .postgres(let pool):
            return try await pool.transaction { connection in
                var loaded: [String: Int] = [:]
                for table in tables {
                    guard let lines = lines[table.table] else { continue }
                    let columns = try loadedColumns(
                        lines, into: try await postgresColumns(connection, table, logger: pool.logger), table)
                    // One statement per batch of rows, under PostgreSQL's 65,535 parameters.
                    let batch = max(1, 16_000 / max(columns.count, 1))
                    var pending: [[RecordValue]] = []
                    func flush() async throws {
                        guard !pending.isEmpty else { return }
                        var binds = PostgresBindings(capacity: pending.count * columns.count)
                        var groups: [String] = []
                        for values in pending {
                            let start = binds.count
                            for value in values { value.bind(into: &binds) }
                            groups.append("(" + (start + 1...binds.count).map { "$\($0)" }.joined(separator: ", ") + ")")
                        }
                        let sql = "INSERT INTO \(table.name(postgres: true)) (\(list(columns))) VALUES \(groups.joined(separator: ", "))"
                        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: pool.logger)
                        pending.removeAll(keepingCapacity: true)
                    }
                    var rows: [[RecordValue]] = []
                    loaded[table.table] = try records(lines, columns, table, rewrite) { rows.append($0) }
                    for values in rows {
                        pending.append(values)
                        if pending.count == batch { try await flush() }
                    }
                    try await flush()
                }
                for statement in tables.flatMap(\.derive) {
                    var binds = PostgresBindings()
                    if ExportedTable.namesApp(statement) { binds.append(appID) }
                    try await connection.query(
                        PostgresQuery(unsafeSQL: ExportedTable.resolve(statement, postgres: true), binds: binds), logger: pool.logger)
                }
                return loaded
            }
        }
    }

    /// Removes the app's rows of every table (the last first) and what they derived, in one transaction.
    package static func remove(_ tables: [ExportedTable], appID: String, from engine: StoreEngine) async throws {
        let statements = tables.reversed().flatMap { table in
            table.underive.map { ($0, table) } + [("DELETE FROM {table} WHERE \(table.scope)", table)]
        }
        switch engine {
        case .sqlite(let database):
            try await database.write { db in
                for (statement, table) in statements {
                    let sql = ExportedTable.resolve(statement.replacingOccurrences(of: "{table}", with: table.table), postgres: false)
                    try db.execute(sql: sql, arguments: [appID])
                }
            }
        case .postgres(let pool):
            try await pool.transaction { connection in
                for (statement, table) in statements {
                    let sql = ExportedTable.resolve(statement.replacingOccurrences(of: "{table}", with: table.name(postgres: true)), postgres: true)
                    var binds = PostgresBindings()
                    binds.append(appID)
                    try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: pool.logger)
                }
            }
        }
    }

    // MARK: - Schemas

    private static func sqliteColumns(_ db: Database, _ table: ExportedTable) throws -> [ExportedColumn] {
        // `table_info` leaves generated columns out (chat's search partition).
        let columns = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?) ORDER BY cid", arguments: [table.table])
            .map { ExportedColumn(name: $0["name"], kind: ExportedColumn.kind(declared: $0["type"])) }
        guard !columns.isEmpty else { throw Failure("\(table.table): no such table") }
        return columns.filter { !table.leftOut.contains($0.name) }
    }

    private static func postgresColumns(_ connection: PostgresConnection, _ table: ExportedTable, logger: Logger) async throws -> [ExportedColumn] {
        let name = table.name(postgres: true)
        var columns: [ExportedColumn] = []
        let query: PostgresQuery = """
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(name) ORDER BY ordinal_position
            """
        for try await (column, type) in try await connection.query(query, logger: logger).decode((String, String).self) {
            columns.append(ExportedColumn(name: column, kind: ExportedColumn.kind(declared: type)))
        }
        guard !columns.isEmpty else { throw Failure("\(name): no such table") }
        return columns.filter { !table.leftOut.contains($0.name) }
    }

    /// The export's columns of a table, each as the store declares it; refused when the store lacks one.
    private static func loadedColumns(_ lines: Lines, into store: [ExportedColumn], _ table: ExportedTable) throws -> [ExportedColumn] {
        let declared = Dictionary(store.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return try lines.columns.map { column in
            guard let target = declared[column.name] else {
                throw Failure("\(lines.table): this deployment's \(table.table) has no column \(column.name) (the export comes from a newer build)")
            }
            return target
        }
    }

    /// Each line's values in `columns`' order, rewritten, handed to `insert`; the number of lines.
    private static func records(
        _ lines: Lines, _ columns: [ExportedColumn], _ table: ExportedTable, _ rewrite: Rewrite?, insert: ([RecordValue]) throws -> Void
    ) throws -> Int {
        var count = 0
        for line in lines.data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            count += 1
            guard let json = RecordLineParser.parse(line) else { throw Failure("\(lines.table), line \(count): not a flat JSON object") }
            var values: [String: RecordValue] = [:]
            for column in columns {
                guard let value = json[column.name].flatMap({ RecordValue(json: $0, as: column.kind) }) else {
                    throw Failure("\(lines.table), line \(count): \(column.name) is missing or not \(column.kind.rawValue)")
                }
                values[column.name] = value
            }
            rewrite?(lines.table, &values)
            try insert(columns.map { values[$0.name] ?? .null })
        }
        guard count == lines.rows else { throw Failure("\(lines.table): \(count) lines where the manifest says \(lines.rows)") }
        return count
    }

    // MARK: - Values

    private static func list(_ columns: [ExportedColumn]) -> String {
        columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
    }

    private static func value(_ stored: DatabaseValue, _ column: ExportedColumn, _ table: ExportedTable) throws -> RecordValue {
        switch (stored.storage, column.kind) {
        case (.null, _): return .null
        case (.int64(let value), .integer): return .integer(value)
        case (.int64(let value), .boolean): return .boolean(value != 0)
        case (.int64(let value), .real): return .real(Double(value))
        case (.double(let value), .real): return .real(value)
        case (.string(let value), .text): return .text(value)
        case (.blob(let value), .blob): return .blob(value)
        default: throw Failure("\(table.table).\(column.name) holds \(stored) where \(column.kind.rawValue) is declared")
        }
    }

    private static func value(_ cell: PostgresCell, _ column: ExportedColumn) throws -> RecordValue {
        switch column.kind {
        case .integer: try cell.decode(Int64?.self).map(RecordValue.integer) ?? .null
        case .real: try cell.decode(Double?.self).map(RecordValue.real) ?? .null
        case .boolean: try cell.decode(Bool?.self).map(RecordValue.boolean) ?? .null
        case .text: try cell.decode(String?.self).map(RecordValue.text) ?? .null
        case .blob: try cell.decode(ByteBuffer?.self).map { RecordValue.blob(Data($0.readableBytesView)) } ?? .null
        }
    }
}

extension RecordValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .boolean(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): value.databaseValue
        }
    }

    func bind(into binds: inout PostgresBindings) {
        switch self {
        case .null: binds.appendNull()
        case .integer(let value): binds.append(value)
        case .real(let value): binds.append(value)
        case .boolean(let value): binds.append(value)
        case .text(let value): binds.append(value)
        case .blob(let value): binds.append(ByteBuffer(bytes: value))
        }
    }
}
