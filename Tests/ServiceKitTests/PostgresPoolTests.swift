import PostgresNIO
import PostgresStorage
import ServiceKit
import TestSupport
import XCTest

final class PostgresPoolTests: XCTestCase {
    func testDatabaseURLs() throws {
        let full = try PostgresPool.configuration("postgres://glint:s%40cret@db.internal:6543/chat?sslmode=disable")
        XCTAssertEqual(full.host, "db.internal")
        XCTAssertEqual(full.port, 6543)
        XCTAssertEqual(full.username, "glint")
        XCTAssertEqual(full.password, "s@cret", "percent-encoded passwords are decoded")
        XCTAssertEqual(full.database, "chat")
        let defaults = try PostgresPool.configuration("postgresql://glint@localhost/auth")
        XCTAssertEqual(defaults.port, 5432)
        XCTAssertNil(defaults.password)
        for mode in ["disable", "prefer", "require", "verify-ca", "verify-full"] {
            XCTAssertNoThrow(try PostgresPool.configuration("postgres://glint@h/db?sslmode=\(mode)"), mode)
        }
        for bad in ["mysql://glint@h/db", "postgres://h/db", "postgres://glint@h", "postgres://glint@h/db?sslmode=sometimes", "not a url"] {
            XCTAssertThrowsError(try PostgresPool.configuration(bad), bad)
        }
    }

    /// Replicas starting at once migrate in turn: each migration runs once, none fails.
    func testMigrationsRunOnceWhateverStartsThem() async throws {
        let (first, url) = try await TestPostgres.freshDatabase()
        defer { first.close() }
        let second = try PostgresPool(url: url, logger: TestEnvironment.logger)
        defer { second.close() }
        let migrations = [
            PostgresMigration("one", ["CREATE TABLE counter (n integer NOT NULL)", "INSERT INTO counter VALUES (1)"]),
            PostgresMigration("two", ["UPDATE counter SET n = n + 1"]),
        ]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for pool in [first, second, first, second] { group.addTask { try await pool.migrate(migrations) } }
            try await group.waitForAll()
        }
        try await second.migrate(migrations + [PostgresMigration("three", ["UPDATE counter SET n = n * 10"])])
        var values: [Int32] = []
        for try await n in try await first.client.query("SELECT n FROM counter", logger: first.logger).decode(Int32.self) { values.append(n) }
        XCTAssertEqual(values, [20], "one, two and three once each, in order")
        try await first.check()
    }

    /// A migration that fails leaves nothing of itself, nor of the ones after it.
    func testAFailedMigrationIsRolledBack() async throws {
        let (pool, _) = try await TestPostgres.freshDatabase()
        defer { pool.close() }
        do {
            try await pool.migrate([
                PostgresMigration("good", ["CREATE TABLE a (n integer)"]), PostgresMigration("bad", ["CREATE TABLE b (n nonsense)"]),
            ])
            XCTFail("the bad migration fails")
        } catch {}
        var names: [String] = []
        for try await name in try await pool.client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'", logger: pool.logger).decode(
            String.self)
        {
            names.append(name)
        }
        XCTAssertEqual(names, [], "not even the migrations' own table")
    }
}
