import GRDB
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
}
