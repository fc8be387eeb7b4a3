import GRDB
import ServiceKit
import Synchronization
import TestSupport
import XCTest

final class OutboxRelayTests: XCTestCase {
    struct Payload: Codable, Equatable { var n: Int }

    private func database() throws -> DatabasePool {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("outbox") { db in try SQLiteOutboxStore.createTable(db) }
        return try DatabaseFactory.openPool(at: try TestEnvironment.temporaryDirectory() + "/outbox.sqlite", migrator: migrator)
    }

    /// What was committed before a crash is delivered by the next process's relay.
    func testPendingMessagesSurviveARestart() async throws {
        let pool = try database()
        try await pool.write { db in
            for n in 0..<3 { try SQLiteOutboxStore.enqueue(db, topic: "t", key: "k\(n % 2)", payload: Payload(n: n)) }
        }
        let delivered = Mutex<[Int]>([])
        let relay = OutboxRelay(store: SQLiteOutboxStore(database: pool), logger: TestEnvironment.logger) { message in
            let payload: Payload = try (JSONText.decode(message.payload) as Payload?).orThrow()
            delivered.withLock { $0.append(payload.n) }
        }
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [0, 1, 2])
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [0, 1, 2], "delivered once")
    }

    func testAFailureHoldsBackOnlyItsKey() async throws {
        let pool = try database()
        try await pool.write { db in
            try SQLiteOutboxStore.enqueue(db, topic: "t", key: "a", payload: Payload(n: 1))
            try SQLiteOutboxStore.enqueue(db, topic: "t", key: "b", payload: Payload(n: 2))
            try SQLiteOutboxStore.enqueue(db, topic: "t", key: "a", payload: Payload(n: 3))
        }
        let delivered = Mutex<[Int]>([])
        let relay = OutboxRelay(store: SQLiteOutboxStore(database: pool), logger: TestEnvironment.logger) { message in
            let payload: Payload = try (JSONText.decode(message.payload) as Payload?).orThrow()
            if payload.n == 1 { throw ServiceError(.unavailable, "down") }
            delivered.withLock { $0.append(payload.n) }
        }
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [2], "key a waits behind its failed first message")
        let attempts = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT attempts FROM outbox WHERE payload = ?", arguments: [#"{"n":1}"#]) }
        XCTAssertEqual(attempts, 1)
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [2], "the next round too: its first message waits for its retry, and 3 behind it")
        let settled = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NOT NULL") }
        XCTAssertEqual(settled, 1, "2 was recorded as delivered, once")
    }

    /// A batching consumer: a round's messages in calls bounded by count and payload bytes (one
    /// too large goes alone); a failed call holds back the keys it carried.
    func testBatchesAreBoundedAndAFailedOneHoldsBackItsKeys() async throws {
        let pool = try database()
        try await pool.write { db in
            for n in 0..<7 { try SQLiteOutboxStore.enqueue(db, topic: "t", key: n == 6 ? "a" : "k\(n)", payload: Payload(n: n)) }
        }
        let calls = Mutex<[[Int]]>([])
        // `{"n":0}` is 7 bytes: three fit in 21, the count allows four.
        let relay = OutboxRelay(store: SQLiteOutboxStore(database: pool), logger: TestEnvironment.logger, batchCount: 4, batchBytes: 21) { messages in
            let numbers = try messages.map { message -> Int in try (JSONText.decode(message.payload) as Payload?).orThrow().n }
            calls.withLock { $0.append(numbers) }
            if numbers.contains(3) { throw ServiceError(.unavailable, "down") }
        }
        try await pool.write { db in try db.execute(sql: "UPDATE outbox SET key = 'a' WHERE payload = ?", arguments: [#"{"n":3}"#]) }
        await relay.deliverDue()
        XCTAssertEqual(calls.withLock { $0 }, [[0, 1, 2], [3, 4, 5]], "the third batch is key a's, held back behind 3's failure")
        let delivered = try await pool.read { db in try Int.fetchAll(db, sql: "SELECT id FROM outbox WHERE delivered_at IS NOT NULL ORDER BY id") }
        XCTAssertEqual(delivered, [1, 2, 3], "the first batch only")
        let retried = try await pool.read { db in try Int.fetchAll(db, sql: "SELECT id FROM outbox WHERE attempts = 1 AND delivered_at IS NULL ORDER BY id") }
        XCTAssertEqual(retried, [4, 5, 6], "the failed batch's messages wait for their retry")
    }
}
