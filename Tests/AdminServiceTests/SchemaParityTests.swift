import APIDocs
import SQLiteStorage
import ServiceKit
import Storage
import TestSupport
import XCTest

@testable import AdminService

/// Both engines' migrations give the same tables, columns, nullability, defaults and indexes.
final class SchemaParityTests: XCTestCase {
    func testBothEnginesMigrateToOneSchema() async throws {
        let differences = try await SchemaShape.differences(sqlite: AdminMigrations.migrator, postgres: AdminPostgresMigrations.all, ignoring: [])
        XCTAssertEqual(differences, [], differences.joined(separator: "\n"))
    }
}

/// `/openapi/admin.json` lists what admin-svc serves, and admin-svc serves nothing it does not list.
final class AdminDocumentTests: XCTestCase {
    func testEveryDocumentedOperationIsServedAndNothingElse() async throws {
        let directory = try TestEnvironment.temporaryDirectory()
        let common = TestEnvironment.common(.admin, dataDirectory: directory)
        let engine = StoreEngine.sqlite(try DatabaseFactory.openPool(at: common.databasePath, migrator: AdminMigrations.migrator))
        let assembly = try AdminAssembly.assemble(
            common: common, configuration: AdminConfiguration(), logger: TestEnvironment.logger, engine: engine,
            dependencies: .init(
                auth: .unimplemented, content: .unimplemented, market: .unimplemented, payments: .unimplemented, push: .unimplemented,
                apps: .unimplemented, requests: .unimplemented, activity: .unimplemented,
                monitor: ProcessMonitor(http: .shared, configuration: common, logger: TestEnvironment.logger),
                backups: BackupWatch(dataDirectory: common.dataDirectory, registry: .init()), hasher: .bcrypt(cost: 4)))
        let served = Set(assembly.routes.filter { $0.path.hasPrefix("/admin/api") }.map { "\($0.method) \($0.path)" })
        let documented = Set(AdminCatalogue.operations.map { "\($0.method) \($0.pattern)" })
        XCTAssertEqual(served, documented)
    }
}
