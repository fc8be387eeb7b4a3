import Foundation
import GRDB
import SQLiteStorage
import TestSupport
import XCTest

private func lookup(_ lookups: SQLiteLookups) throws -> Int? {
    try lookups.readNow { db in try Int.fetchOne(db, sql: "SELECT value FROM item WHERE id = 'a'") }
}

final class SQLiteLookupsTests: XCTestCase {
    private func open() throws -> (DatabasePool, SQLiteLookups) {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "item") { t in
                t.primaryKey("id", .text)
                t.column("value", .integer).notNull()
            }
        }
        let pool = try DatabaseFactory.openPool(at: try TestEnvironment.temporaryDirectory() + "/lookups.sqlite", migrator: migrator)
        return (pool, try SQLiteLookups(beside: pool))
    }

    /// Read-your-writes: a commit that returned before the lookup is what the lookup sees, from
    /// any task (a request on the other event loop).
    func testALookupSeesEveryWriteCommittedBeforeIt() async throws {
        let (pool, lookups) = try open()
        for value in 1...50 {
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO item (id, value) VALUES ('a', ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value",
                    arguments: [value])
            }
            let seen = try await Task.detached { () throws -> Int? in try lookup(lookups) }.value
            XCTAssertEqual(seen, value)
        }
    }

    /// Why it may run on an event loop: it does not wait for a writer, even one holding its
    /// transaction open; it answers the last commit.
    func testALookupDoesNotWaitForAnOpenWriteTransaction() async throws {
        let (pool, lookups) = try open()
        try await pool.write { db in try db.execute(sql: "INSERT INTO item (id, value) VALUES ('a', 1)") }
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = Task.detached {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction {
                    try db.execute(sql: "UPDATE item SET value = 2 WHERE id = 'a'")
                    inside.signal()
                    release.wait()
                    return .commit
                }
            }
        }
        await Task.detached { inside.wait() }.value
        XCTAssertEqual(try lookup(lookups), 1, "the last commit, read while the write is open")
        release.signal()
        try await writer.value
        XCTAssertEqual(try lookup(lookups), 2)
    }

    /// Why its connections are its own: with every reader of the pool taken by `async` reads
    /// whose tasks have not resumed, a lookup still answers (on the pool's own readers it would
    /// wait for them, and they for its thread).
    func testALookupDoesNotWaitForThePoolsReaders() async throws {
        let (pool, lookups) = try open()
        try await pool.write { db in try db.execute(sql: "INSERT INTO item (id, value) VALUES ('a', 7)") }
        let readers = pool.configuration.maximumReaderCount
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holders = (0..<readers).map { _ in
            Task.detached {
                try await pool.read { db in
                    entered.signal()
                    release.wait()
                    return try Int.fetchOne(db, sql: "SELECT value FROM item")
                }
            }
        }
        await Task.detached { for _ in 0..<readers { entered.wait() } }.value
        XCTAssertEqual(try lookup(lookups), 7, "answered while the pool has no reader free")
        for _ in 0..<readers { release.signal() }
        for holder in holders {
            let held = try await holder.value
            XCTAssertEqual(held, 7)
        }
    }

    /// A lookup's statements all read one commit: one committed between them is not seen until
    /// the next lookup.
    func testALookupsStatementsReadOneCommit() async throws {
        let (pool, lookups) = try open()
        try await pool.write { db in try db.execute(sql: "INSERT INTO item (id, value) VALUES ('a', 1)") }
        let (first, second) = try lookups.readNow { db -> (Int?, Int?) in
            let first = try Int.fetchOne(db, sql: "SELECT value FROM item WHERE id = 'a'")
            let written = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                try? pool.write { db in try db.execute(sql: "UPDATE item SET value = 2 WHERE id = 'a'") }
                written.signal()
            }
            written.wait()
            return (first, try Int.fetchOne(db, sql: "SELECT value FROM item WHERE id = 'a'"))
        }
        XCTAssertEqual(first, 1)
        XCTAssertEqual(second, 1, "the lookup's snapshot, not the commit made during it")
        XCTAssertEqual(try lookup(lookups), 2)
    }

    /// A lookup that fails (a statement SQLite refuses, an error of the caller's) ends its
    /// snapshot: every connection answers the next commit afterwards.
    func testAFailedLookupLeavesItsConnectionUsable() async throws {
        struct Refused: Error {}
        let (pool, lookups) = try open()
        try await pool.write { db in try db.execute(sql: "INSERT INTO item (id, value) VALUES ('a', 1)") }
        for attempt in 0..<8 {
            XCTAssertThrowsError(
                try lookups.readNow { db -> Int? in
                    if attempt.isMultiple(of: 2) { throw Refused() }
                    return try Int.fetchOne(db, sql: "SELECT value FROM no_such_table")
                })
        }
        try await pool.write { db in try db.execute(sql: "UPDATE item SET value = 3 WHERE id = 'a'") }
        for _ in 0..<8 { XCTAssertEqual(try lookup(lookups), 3) }
    }
}
