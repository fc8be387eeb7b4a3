import GRDB
import SQLiteStorage
import ServiceKit
import XCTest

final class TableChangeCounterTests: XCTestCase {
    func testTheCounterMovesOnCommittedChangesToItsTablesOnly() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE watched (x); CREATE TABLE other (x)")
        }
        let counter = TableChangeCounter.watching(["watched"], in: database)
        try database.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
        XCTAssertEqual(counter.count, 0)
        try database.write { db in try db.execute(sql: "INSERT INTO watched VALUES (1); INSERT INTO watched VALUES (2)") }
        XCTAssertEqual(counter.count, 1, "one transaction, one count")
        try? database.write { db in
            try db.execute(sql: "DELETE FROM watched")
            throw DatabaseError(resultCode: .SQLITE_ABORT)
        }
        XCTAssertEqual(counter.count, 1, "rolled back")
        try database.write { db in try db.execute(sql: "DELETE FROM watched") }
        XCTAssertEqual(counter.count, 2)
        XCTAssertEqual(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM watched") }, 0)
    }

    func testACacheForgetsWhatAChangeMadeStale() throws {
        let database = try DatabaseQueue()
        try database.write { db in try db.execute(sql: "CREATE TABLE watched (x)") }
        let cache = ChangeBoundCache<String, Int>(changes: TableChangeCounter.watching(["watched"], in: database), maxCost: 2)
        let before = cache.generation
        cache.store([("a", 1)], generation: before)
        XCTAssertEqual(cache.value(for: "a", generation: before), 1)
        XCTAssertEqual(cache.values(for: ["a", "b"], generation: before) { $0 }, ["a": 1])
        XCTAssertEqual(cache.values(for: ["a"], generation: before) { "kept \($0)" }, ["a": "kept 1"], "what the caller takes of each")
        XCTAssertEqual(cache.values(for: ["a"], generation: before) { $0 > 1 ? $0 : nil }, [:], "a value not taken")

        try database.write { db in try db.execute(sql: "INSERT INTO watched VALUES (1)") }
        XCTAssertNil(cache.value(for: "a", generation: before), "read before the change")
        XCTAssertNil(cache.value(for: "a", generation: cache.generation), "emptied by the change")
        cache.store([("b", 2)], generation: before)
        XCTAssertNil(cache.value(for: "b", generation: cache.generation), "computed from a read older than the change")

        let now = cache.generation
        cache.store([("c", 3), ("d", 4)], generation: now)
        cache.store([("e", 5)], generation: now)
        XCTAssertEqual(cache.values(for: ["c", "d", "e"], generation: now) { $0 }, ["e": 5], "full: starts over")
        cache.store([("f", 6), ("g", 7), ("h", 8)], generation: now)
        XCTAssertNil(cache.value(for: "f", generation: now), "more than it may hold is not kept")
    }
}
