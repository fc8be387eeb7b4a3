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
}
