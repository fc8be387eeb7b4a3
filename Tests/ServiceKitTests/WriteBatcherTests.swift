import Foundation
import GRDB
import SQLiteStorage
import ServiceKit
import Synchronization
import TestSupport
import XCTest

final class WriteBatcherTests: XCTestCase {
    /// Requests that arrive while a batch is written go in together, in one transaction; one
    /// that fails fails alone.
    func testWaitingWritesShareATransactionAndFailAlone() async throws {
        let database = try DatabaseQueue()
        try await database.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT NOT NULL UNIQUE)") }
        let commits = TableChangeCounter.watching(["item"], in: database)
        let gate = DispatchSemaphore(value: 0)
        let holding = Flag()
        let batcher = WriteBatcher<String, Int64>(database: database) { db, name in
            if name.hasPrefix("hold") {  // holds its batch, alone, until the others wait
                holding.value.withLock { $0 = true }
                gate.wait()
                holding.value.withLock { $0 = false }
            }
            try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: [name])
            return db.lastInsertedRowID
        }

        func round(_ names: [String], after held: String) async throws -> [Result<Int64, any Error>] {
            async let written = batcher.submit(held)
            let writing = await HTTPProbe.eventually(within: .seconds(10), every: .milliseconds(5)) { holding.value.withLock { $0 } ? true : nil }
            XCTAssertEqual(writing, true)
            let outcomes = Task {
                await withTaskGroup(of: Result<Int64, any Error>.self) { group in
                    for name in names { group.addTask { await Result(catching: { try await batcher.submit(name) }) } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            let gathered = await HTTPProbe.eventually(within: .seconds(10), every: .milliseconds(5)) { batcher.waiting == names.count ? true : nil }
            XCTAssertEqual(gathered, true, "the others wait while the held batch is written")
            gate.signal()
            _ = try await written
            return await outcomes.value
        }

        let first = try await round((0..<40).map { "item-\($0)" }, after: "hold-1")
        XCTAssertEqual(Set(first.compactMap { try? $0.get() }).count, 40)
        XCTAssertEqual(commits.count, 2, "the held request, then all the others together")

        let second = try await round(["late-1", "item-7", "late-2"], after: "hold-2")
        XCTAssertEqual(second.filter { (try? $0.get()) == nil }.count, 1, "the duplicate fails")
        let stored = try await database.read { db in try String.fetchAll(db, sql: "SELECT name FROM item WHERE name NOT LIKE 'item-%' ORDER BY name")
        }
        XCTAssertEqual(stored, ["hold-1", "hold-2", "late-1", "late-2"], "the others of its batch are kept")
    }
}

extension WriteBatcherTests {
    /// With a direct writer, a batch is written on the draining thread while the file's writer is
    /// free (the pool's writer sees no commit), and goes to the pool's writer, waiting for it,
    /// while another transaction holds the file.
    func testABatchIsWrittenDirectlyUnlessTheFileIsBusy() async throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE item (name TEXT NOT NULL UNIQUE)") }
        let pool = try DatabaseFactory.openPool(at: try TestEnvironment.temporaryDirectory() + "/batcher.sqlite", migrator: migrator)
        let poolCommits = TableChangeCounter.watching(["item"], in: pool)
        let directWriter = try SQLiteDirectWriter(beside: pool)
        let batcher = WriteBatcher<String, Int>(database: pool, direct: directWriter) { db, name in
            try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: [name])
            return db.changesCount
        }
        let direct = try await batcher.submit("direct")
        XCTAssertEqual(direct, 1)
        XCTAssertEqual(poolCommits.count, 0, "written by the direct connection")

        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('held')")
                    inside.signal()
                    release.wait()
                    return .commit
                }
            }
        }
        inside.wait()
        async let fallback = batcher.submit("fallback")
        let refused = await HTTPProbe.eventually(within: .seconds(10), every: .milliseconds(5)) { directWriter.refused == 1 ? true : nil }
        XCTAssertEqual(refused, true, "the direct write refused while the file is held")
        release.signal()
        let written = try await fallback
        XCTAssertEqual(written, 1)
        XCTAssertEqual(poolCommits.count, 2, "the held transaction, then the batch on the pool's writer")
        let names = try await pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name") }
        XCTAssertEqual(names, ["direct", "fallback", "held"])
    }

    /// Batches and the pool's own writes at once, from many tasks: the two connections meet each
    /// other's lock in both directions (a refused batch goes to the pool, the pool's writer
    /// waits), and every write lands once.
    func testDirectBatchesAndPoolWritesAtOnceAllLand() async throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT NOT NULL UNIQUE)")
            try db.execute(sql: "CREATE TABLE scratch (n INTEGER NOT NULL)")
        }
        let pool = try DatabaseFactory.openPool(at: try TestEnvironment.temporaryDirectory() + "/mixed.sqlite", migrator: migrator)
        // Each write holds the lock a while (500 more rows), so that the two meet.
        let write = { @Sendable (db: Database, name: String) throws -> Int in
            try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: [name])
            let changes = db.changesCount
            try db.execute(sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500) INSERT INTO scratch SELECT x FROM c")
            return changes
        }
        let batcher = WriteBatcher<String, Int>(database: pool, direct: try SQLiteDirectWriter(beside: pool), apply: write)
        let written = try await withThrowingTaskGroup(of: Int.self) { group in
            // Four writers of each kind, one write after another: batches of a few, written directly.
            for writer in 0..<4 {
                group.addTask {
                    var written = 0
                    for index in 0..<75 { written += try await batcher.submit("batched-\(writer)-\(index)") }
                    return written
                }
                group.addTask {
                    var written = 0
                    for index in 0..<75 { written += try await pool.write { db in try write(db, "pool-\(writer)-\(index)") } }
                    return written
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(written, 600)
        let count = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
        XCTAssertEqual(count, 600)
    }
}

private final class Flag: Sendable {
    let value = Mutex(false)
}

private extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
