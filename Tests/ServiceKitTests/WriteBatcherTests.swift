import Foundation
import GRDB
import ServiceKit
import TestSupport
import XCTest

final class WriteBatcherTests: XCTestCase {
    /// Requests that arrive while a batch is written go in together, in one transaction; one
    /// that fails is rolled back alone.
    func testWaitingWritesShareATransactionAndFailAlone() async throws {
        let database = try DatabaseQueue()
        try await database.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT NOT NULL UNIQUE)") }
        let commits = TableChangeCounter.watching(["item"], in: database)
        let gate = DispatchSemaphore(value: 0)
        let batcher = WriteBatcher<String, Int64>(database: database) { db, name in
            if name == "first" { gate.wait() }   // holds the first batch until the others wait
            try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: [name])
            return db.lastInsertedRowID
        }
        async let first = batcher.submit("first")
        let names = (0..<40).map { "item-\($0)" } + ["item-7"]
        let outcomes = Task {
            await withTaskGroup(of: (String, Result<Int64, any Error>).self) { group in
                for name in names { group.addTask { (name, await Result(catching: { try await batcher.submit(name) })) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        let gathered = await HTTPProbe.eventually(within: .seconds(10), every: .milliseconds(5)) { batcher.waiting == names.count ? true : nil }
        XCTAssertEqual(gathered, true, "the others wait while the first batch is written")
        gate.signal()
        _ = try await first
        let results = await outcomes.value
        XCTAssertEqual(results.filter { (try? $0.1.get()) == nil }.count, 1, "the duplicate fails")
        XCTAssertEqual(Set(results.compactMap { try? $0.1.get() }).count, names.count - 1)
        let stored = try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") }
        XCTAssertEqual(stored, names.count, "the first and every other but the duplicate")
        XCTAssertEqual(commits.count, 2, "the first request, then all the others together")
    }
}

private extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
