import GRDB
import SQLiteStorage
import ServiceKit
import TestSupport
import XCTest

final class DatabaseFactoryTests: XCTestCase {
    func testPoolSettingsAndMigrations() async throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "parent") { $0.primaryKey("id", .text) }
            try db.create(table: "child") { t in
                t.primaryKey("id", .text)
                t.column("parent_id", .text).notNull().references("parent")
            }
        }
        let path = try TestEnvironment.temporaryDirectory() + "/nested/test.sqlite"
        let pool = try DatabaseFactory.openPool(at: path, migrator: migrator)
        try await pool.read { db in
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA journal_mode"), "wal")
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA synchronous"), 1, "NORMAL")
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA foreign_keys"), 1)
            XCTAssertGreaterThan(try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? 0, 0)
            XCTAssertTrue(try db.tableExists("child"))
        }
        do {
            try await pool.write { db in try db.execute(sql: "INSERT INTO child (id, parent_id) VALUES ('c', 'missing')") }
            XCTFail("foreign key not enforced")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .SQLITE_CONSTRAINT)
        }
        try await DatabaseFactory.check(pool)
        // Opening again applies nothing twice.
        _ = try DatabaseFactory.openPool(at: path, migrator: migrator)
    }
}
