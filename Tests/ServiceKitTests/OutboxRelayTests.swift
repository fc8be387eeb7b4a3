import Outbox
import ServiceKit
import Synchronization
import TestSupport
import XCTest

/// The relay over each engine's outbox: the same scenarios on SQLite and on PostgreSQL.
final class OutboxRelayTests: XCTestCase {
    func testPendingMessagesSurviveARestartOnSQLite() async throws { try await pendingMessagesSurviveARestart(SQLiteOutboxFixture()) }
    func testPendingMessagesSurviveARestartOnPostgreSQL() async throws { try await pendingMessagesSurviveARestart(PostgresOutboxFixture.make()) }
    func testAFailureHoldsBackOnlyItsKeyOnSQLite() async throws { try await aFailureHoldsBackOnlyItsKey(SQLiteOutboxFixture()) }
    func testAFailureHoldsBackOnlyItsKeyOnPostgreSQL() async throws { try await aFailureHoldsBackOnlyItsKey(PostgresOutboxFixture.make()) }
    func testBatchesOnSQLite() async throws { try await batchesAreBoundedAndAFailedOneHoldsBackItsKeys(SQLiteOutboxFixture()) }
    func testBatchesOnPostgreSQL() async throws { try await batchesAreBoundedAndAFailedOneHoldsBackItsKeys(PostgresOutboxFixture.make()) }
    func testRedeliveryAfterARestoreOnSQLite() async throws { try await deliveriesSinceASnapshotAreDueAgain(SQLiteOutboxFixture()) }
    func testRedeliveryAfterARestoreOnPostgreSQL() async throws { try await deliveriesSinceASnapshotAreDueAgain(PostgresOutboxFixture.make()) }

    private static func numbers(_ messages: [OutboxMessage]) throws -> [Int] {
        try messages.map { message in try (JSONText.decode(message.payload) as OutboxPayload?).orThrow().n }
    }

    /// What was committed before a crash is delivered by the next process's relay.
    private func pendingMessagesSurviveARestart(_ outbox: some OutboxFixture) async throws {
        try await outbox.enqueue((0..<3).map { (key: "k\($0 % 2)", n: $0) })
        let delivered = Mutex<[Int]>([])
        let relay = OutboxRelay(store: outbox.store, logger: TestEnvironment.logger) { message in
            let numbers = try Self.numbers([message])
            delivered.withLock { $0 += numbers }
        }
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [0, 1, 2])
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [0, 1, 2], "delivered once")
    }

    private func aFailureHoldsBackOnlyItsKey(_ outbox: some OutboxFixture) async throws {
        try await outbox.enqueue([(key: "a", n: 1), (key: "b", n: 2), (key: "a", n: 3)])
        let delivered = Mutex<[Int]>([])
        let refusals = FailureCountdown()
        refusals.set(1)
        let relay = OutboxRelay(store: outbox.store, logger: TestEnvironment.logger) { message in
            let numbers = try Self.numbers([message])
            if numbers == [1], refusals.take() { throw ServiceError(.unavailable, "down") }
            delivered.withLock { $0 += numbers }
        }
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [2], "key a waits behind its failed first message")
        let tried = try await outbox.ids(where: "attempts = 1 AND delivered_at IS NULL")
        XCTAssertEqual(tried, [1])
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [2], "the next round too: its first message waits for its retry, and 3 behind it")
        let settled = try await outbox.ids(where: "delivered_at IS NOT NULL")
        XCTAssertEqual(settled, [2], "2 was recorded as delivered, once")
        // Its retry time come, 1 goes and 3 right behind it (3 was taken by the first round but
        // not tried: it must not stay held by that round's lease).
        try await outbox.execute("UPDATE outbox SET next_attempt_at = 0 WHERE id = 1")
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [2, 1, 3])
    }

    /// After a restore, what was delivered since the snapshot began goes again, in key order;
    /// what was delivered before it does not.
    private func deliveriesSinceASnapshotAreDueAgain(_ outbox: some OutboxFixture) async throws {
        try await outbox.enqueue([(key: "a", n: 1), (key: "b", n: 2), (key: "a", n: 3), (key: "c", n: 4)])
        try await outbox.execute("UPDATE outbox SET delivered_at = 100 WHERE id = 1")
        try await outbox.execute("UPDATE outbox SET delivered_at = 200 WHERE id IN (2, 3)")
        let count = try await outbox.store.redeliver(deliveredSince: 200, at: 300)
        XCTAssertEqual(count, 2)
        let delivered = Mutex<[Int]>([])
        let relay = OutboxRelay(store: outbox.store, logger: TestEnvironment.logger) { message in
            let numbers = try Self.numbers([message])
            delivered.withLock { $0 += numbers }
        }
        await relay.deliverDue()
        XCTAssertEqual(delivered.withLock { $0 }, [2, 3, 4], "1 was delivered before the snapshot began")
    }

    /// A batching consumer: a round's messages in calls bounded by count and payload bytes (one
    /// too large goes alone); a failed call holds back the keys it carried.
    private func batchesAreBoundedAndAFailedOneHoldsBackItsKeys(_ outbox: some OutboxFixture) async throws {
        try await outbox.enqueue((0..<7).map { (key: $0 == 6 || $0 == 3 ? "a" : "k\($0)", n: $0) })
        let calls = Mutex<[[Int]]>([])
        // `{"n":0}` is 7 bytes: three fit in 21, the count allows four.
        let relay = OutboxRelay(store: outbox.store, logger: TestEnvironment.logger, batchCount: 4, batchBytes: 21) { messages in
            let numbers = try Self.numbers(messages)
            calls.withLock { $0.append(numbers) }
            if numbers.contains(3) { throw ServiceError(.unavailable, "down") }
        }
        await relay.deliverDue()
        XCTAssertEqual(calls.withLock { $0 }, [[0, 1, 2], [3, 4, 5]], "the third batch is key a's, held back behind 3's failure")
        let delivered = try await outbox.ids(where: "delivered_at IS NOT NULL")
        XCTAssertEqual(delivered, [1, 2, 3], "the first batch only")
        let retried = try await outbox.ids(where: "attempts = 1 AND delivered_at IS NULL")
        XCTAssertEqual(retried, [4, 5, 6], "the failed batch's messages wait for their retry")
    }

    /// Replicas relaying one PostgreSQL outbox: a round's messages are the taker's alone, a key's
    /// later message is not taken while its earlier one is out, and a relay that died holds its
    /// messages only until the lease ends.
    func testRelaysOfSeveralReplicasShareOnePostgreSQLOutbox() async throws {
        let outbox = try await PostgresOutboxFixture.make()
        try await outbox.enqueue([(key: "a", n: 1), (key: "b", n: 2), (key: "a", n: 3), (key: "c", n: 4)])
        let (one, two) = (outbox.store, outbox.store)
        let first = try await one.due(at: 1_000_000_000_000_000, limit: 1, lease: 60_000)
        XCTAssertEqual(try Self.numbers(first), [1])
        let second = try await two.due(at: 1_000_000_000_000_000, limit: 100, lease: 60_000)
        XCTAssertEqual(try Self.numbers(second), [2, 4], "not 1 (taken) nor 3 (behind 1)")
        let meanwhile = try await two.due(at: 1_000_000_000_000_001, limit: 100, lease: 60_000)
        XCTAssertEqual(meanwhile, [], "everything due is out")
        try await one.markDelivered(first.map(\.id), at: 1_000_000_000_000_002)
        let afterFirst = try await two.due(at: 1_000_000_000_000_003, limit: 100, lease: 60_000)
        XCTAssertEqual(try Self.numbers(afterFirst), [3], "a's next once 1 is delivered")
        let afterLease = try await one.due(at: 1_000_000_000_100_000, limit: 100, lease: 60_000)
        XCTAssertEqual(try Self.numbers(afterLease), [2, 3, 4], "a relay that took them and died: the lease ran out")
    }

    /// Two relays on one outbox, concurrently: each message delivered, and a key's in order.
    func testConcurrentRelaysDeliverEveryMessageInKeyOrderOnPostgreSQL() async throws {
        let outbox = try await PostgresOutboxFixture.make()
        try await outbox.enqueue((0..<200).map { (key: "k\($0 % 7)", n: $0) })
        let delivered = Mutex<[Int]>([])
        let relays = (0..<2).map { _ in
            OutboxRelay(store: outbox.store, logger: TestEnvironment.logger) { message in
                let numbers = try Self.numbers([message])
                delivered.withLock { $0 += numbers }
            }
        }
        for _ in 0..<5 {
            await withTaskGroup(of: Void.self) { group in
                for relay in relays { group.addTask { await relay.deliverDue() } }
            }
        }
        let seen = delivered.withLock { $0 }
        XCTAssertEqual(seen.sorted(), Array(0..<200), "each once")
        for key in 0..<7 {
            let ofKey = seen.filter { $0 % 7 == key }
            XCTAssertEqual(ofKey, ofKey.sorted(), "key k\(key) in order")
        }
    }
}
