import Contracts
import Foundation
import GRDB
import Launcher
import Logging
import PostgresNIO
import PostgresStorage
import Storage
import TestSupport
import XCTest

/// What `glint app export` takes of each store, held to the schemas and to README: every table
/// is exported or left out on purpose (a table a migration adds must be decided on), an exported
/// table has the same columns of the same kinds on SQLite and PostgreSQL (an export loads into
/// either), and README's "App export format" lists each one's fields as the schema declares them.
final class ExportedTablesTests: XCTestCase {
    /// The tables an export leaves out, and the stores' own bookkeeping (README says why).
    static let leftOut: [ServiceName: Set<String>] = [
        .auth: ["session", "refresh_token", "apple_grant", "ban_revision", "outbox"],
        .market: ["story_count", "outbox"],
        .chat: ["chat_fts", "outbox", "live_frame", "replica", "presence"],
        .geo: ["post_location_box"],
        .paymentVerify: ["outbox"],
        .push: ["notification", "delivery"],
    ]
    static let bookkeeping: Set<String> = ["grdb_migrations", "sqlite_sequence", "schema_migration"]
    static let logger = Logger(label: "exported-tables-test")

    func testEveryTableIsExportedOrLeftOutAndTheEnginesAgree() async throws {
        let folder = try TestEnvironment.temporaryDirectory()
        let postgres = ProcessInfo.processInfo.environment["GLINT_TEST_POSTGRES_URL"].map { !$0.isEmpty } ?? false
        for service in ServiceCatalog.appRecordOrder {
            let tables = ServiceCatalog.exportedTables(for: service)
            let sqlite = try await ServiceCatalog.openStore(
                for: service, databaseURL: nil, sqlitePath: "\(folder)/\(service.rawValue).sqlite", logger: Self.logger)
            defer { sqlite.close() }
            guard case .sqlite(let database) = sqlite else { return XCTFail("a file") }
            let names = try await database.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            // A virtual table's shadow tables (`chat_fts_data`, `post_location_box_node`) go with it.
            let own = Set(names).subtracting(Self.bookkeeping).filter { name in
                !(Self.leftOut[service] ?? []).contains { name.hasPrefix($0 + "_") }
            }
            XCTAssertEqual(
                own.subtracting(tables.map(\.table)).subtracting(Self.leftOut[service] ?? []), [],
                "\(service.rawValue): tables neither exported nor left out")
            XCTAssertEqual(Set(tables.map(\.table)).subtracting(own), [], "\(service.rawValue): exported tables the schema lacks")

            guard postgres, !ServiceCatalog.postgresMigrations(for: service).isEmpty else { continue }
            let (pool, url) = try await TestPostgres.freshDatabase(maximumConnections: 1)
            pool.close()
            let engine = try await ServiceCatalog.openStore(for: service, databaseURL: url, sqlitePath: "", logger: Self.logger)
            defer { engine.close() }
            for table in tables {
                let onSQLite = try await AppRecords.columns(of: table, on: sqlite)
                let onPostgres = try await AppRecords.columns(of: table, on: engine)
                XCTAssertEqual(
                    Dictionary(uniqueKeysWithValues: onSQLite.map { ($0.name, $0.kind) }),
                    Dictionary(uniqueKeysWithValues: onPostgres.map { ($0.name, $0.kind) }), "\(service.rawValue) \(table.table)")
            }
            guard case .postgres(let postgresPool) = engine else { return XCTFail("a database") }
            let postgresTables = try await postgresPool.read { connection in
                try await connection.values(
                    String.self, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()", logger: Self.logger)
            }
            let exported = Set(tables.map { $0.name(postgres: true) })
            XCTAssertEqual(
                Set(postgresTables).subtracting(Self.bookkeeping).subtracting(exported).subtracting(Self.leftOut[service] ?? []), [],
                "\(service.rawValue) on PostgreSQL: tables neither exported nor left out")
            XCTAssertEqual(exported.subtracting(postgresTables), [], "\(service.rawValue) on PostgreSQL: exported tables the schema lacks")
        }
    }

    func testReadmeListsEveryExportedFieldWithItsKind() async throws {
        let readme = try DeploymentFilesTests.read("README.md")
        let folder = try TestEnvironment.temporaryDirectory()
        for service in ServiceCatalog.appRecordOrder {
            let engine = try await ServiceCatalog.openStore(
                for: service, databaseURL: nil, sqlitePath: "\(folder)/\(service.rawValue).sqlite", logger: Self.logger)
            defer { engine.close() }
            // The service's part: from its heading to the next one.
            let heading = try XCTUnwrap(readme.range(of: "*\(service.rawValue)* (`records/\(service.rawValue)/…`)"), service.rawValue)
            let part = readme[heading.upperBound...].components(separatedBy: "\n\n").dropFirst().first ?? ""
            for table in ServiceCatalog.exportedTables(for: service) {
                let line = try XCTUnwrap(
                    part.split(separator: "\n").first { $0.hasPrefix("| `\(table.table)` |") }, "\(service.rawValue) \(table.table)")
                let fields = line.split(separator: "|").last.map(String.init) ?? ""
                let documented = fields.split(separator: ",").map { field in
                    field.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "?", with: "")
                }
                let columns = try await AppRecords.columns(of: table, on: engine).map { "\($0.name) \($0.kind.rawValue)" }
                XCTAssertEqual(documented, columns, "README's fields of \(service.rawValue) \(table.table)")
            }
        }
    }
}
