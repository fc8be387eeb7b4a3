import Foundation
import GRDB
import SQLiteStorage
import Synchronization
import TestSupport
import XCTest

final class SQLiteDirectWriterTests: XCTestCase {
    private func open() throws -> (DatabasePool, SQLiteDirectWriter, path: String) {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "item") { t in
                t.column("name", .text).notNull().unique()
                t.column("payload", .blob)
            }
        }
        let path = try TestEnvironment.temporaryDirectory() + "/direct.sqlite"
        let pool = try DatabaseFactory.openPool(at: path, migrator: migrator)
        return (pool, try SQLiteDirectWriter(beside: pool), path)
    }

    private func names(_ pool: DatabasePool) async throws -> [String] {
        try await pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name") }
    }

    /// A direct write is committed when it returns: the pool's readers see it, and the pool's
    /// writer writes after it.
    func testADirectWriteIsCommittedWhenItReturns() async throws {
        let (pool, direct, _) = try open()
        let written = try direct.writeNow { db in
            try db.execute(sql: "INSERT INTO item (name) VALUES ('a')")
            return db.changesCount
        }
        XCTAssertEqual(written, 1)
        let first = try await names(pool)
        XCTAssertEqual(first, ["a"])
        try await pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('b')") }
        let both = try await names(pool)
        XCTAssertEqual(both, ["a", "b"])
    }

    /// Why it may run on an event loop: while the pool's writer holds the lock it answers nil at
    /// once, writes nothing, and does not wait.
    func testItRefusesAtOnceWhileThePoolIsWriting() async throws {
        let (pool, direct, _) = try open()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = Task.detached {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('pool')")
                    inside.signal()
                    release.wait()
                    return .commit
                }
            }
        }
        await Task.detached { inside.wait() }.value
        let started = ContinuousClock.now
        let refused = try direct.writeNow { db in
            try db.execute(sql: "INSERT INTO item (name) VALUES ('direct')")
            return db.changesCount
        }
        XCTAssertNil(refused)
        XCTAssertEqual(direct.refused, 1)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1), "answered without waiting for the pool's transaction")
        release.signal()
        try await writer.value
        let kept = try await names(pool)
        XCTAssertEqual(kept, ["pool"], "nothing of the refused write")
    }

    /// The pool's writer, meeting the direct connection's lock, waits for it rather than failing.
    /// (Threads, not tasks: both block, and the cooperative pool may have two threads in all.)
    func testThePoolWaitsForADirectWrite() async throws {
        let (pool, direct, _) = try open()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let begun = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[String]>([])
        Thread.detachNewThread {
            let held = Result {
                try direct.writeNow { db in
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('direct')")
                    inside.signal()
                    release.wait()
                    return db.changesCount
                }
            }
            outcomes.withLock { $0.append("direct: \(held)") }
            done.signal()
        }
        inside.wait()
        Thread.detachNewThread {
            let written = Result {
                try pool.writeWithoutTransaction { db in
                    begun.signal()
                    try db.inTransaction(.immediate) {
                        try db.execute(sql: "INSERT INTO item (name) VALUES ('pool')")
                        return .commit
                    }
                }
            }
            outcomes.withLock { $0.append("pool: \(written)") }
            done.signal()
        }
        // Released once the pool's writer is about to ask for the lock the direct write holds.
        begun.wait()
        release.signal()
        done.wait()
        done.wait()
        XCTAssertEqual(outcomes.withLock { $0.sorted() }, ["direct: success(Optional(1))", "pool: success()"])
        let written = try await names(pool)
        XCTAssertEqual(written, ["direct", "pool"])
    }

    /// Its commits leave checkpointing to the pool's writer, which it asks: with no other writer,
    /// the pages still reach the database file.
    func testItsCommitsAreCheckpointedIntoTheFile() async throws {
        let (pool, direct, path) = try open()
        let before = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        for index in 0..<256 {
            let written = try direct.writeNow { db in
                try db.execute(sql: "INSERT INTO item (name, payload) VALUES (?, zeroblob(2000))", arguments: ["item-\(index)"])
                return db.changesCount
            }
            XCTAssertNotNil(written)
        }
        let grown = await HTTPProbe.eventually(within: .seconds(10), every: .milliseconds(20)) { () -> Int? in
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return size > before + 256 * 1000 ? size : nil
        }
        XCTAssertNotNil(grown, "the rows' pages copied from the WAL into the file (\(before) bytes before)")
        let rows = try await names(pool)
        XCTAssertEqual(rows.count, 256)
    }
}
