import PostgresNIO
import PostgresStorage
import ServiceKit
import Storage
import TestSupport
import XCTest

/// A cache's generations on PostgreSQL: any connection's commit to a watched table moves every
/// counter listening, and a counter not listening lets nothing be kept.
final class PostgresChangeCounterTests: XCTestCase {
    func testCommitsOfAnyConnectionMoveTheCounterAndNothingIsKeptWhileNotListening() async throws {
        let (database, url) = try await TestPostgres.freshDatabase()
        defer { database.close() }
        try await database.migrate([
            PostgresMigration(
                "watched",
                [
                    "CREATE TABLE watched (n integer NOT NULL)"
                ] + PostgresChangeCounter.triggers(channel: "test_changes", tables: ["watched"]))
        ])
        let counter = PostgresChangeCounter(pool: database, channel: "test_changes")
        XCTAssertNotEqual(counter.count, counter.count, "not listening yet: every read is a new generation")
        let cache = ChangeBoundCache<String, Int>(changes: counter, maxCost: 10)
        cache.store([("a", 1)], generation: cache.generation)
        XCTAssertNil(cache.value(for: "a", generation: cache.generation))

        let listening = Task { try await counter.run() }
        defer { listening.cancel() }
        let settled = await HTTPProbe.eventually(within: .seconds(10)) { () -> UInt64? in
            let count = counter.count
            return count == counter.count ? count : nil
        }
        let before = try XCTUnwrap(settled, "the counter listens")
        let generation = cache.generation
        cache.store([("a", 1)], generation: generation)
        XCTAssertEqual(cache.value(for: "a", generation: generation), 1, "kept while nothing changes")

        // Another replica's write, on a connection of its own.
        let other = try PostgresPool(url: url, logger: TestEnvironment.logger, maximumConnections: 1)
        defer { other.close() }
        try await other.client.query("INSERT INTO watched VALUES (1)", logger: other.logger)
        let moved = await HTTPProbe.eventually(within: .seconds(10)) { counter.count > before ? true : nil }
        XCTAssertNotNil(moved, "the commit's notification moves the counter")
        XCTAssertNil(cache.value(for: "a", generation: generation), "what was kept before the write is gone")

        let local = counter.count
        counter.bump()
        XCTAssertEqual(counter.count, local + 1, "a replica's own commit moves it at once")
    }

    /// `ChangeSignal` on PostgreSQL: the replica told of another service's change moves at once,
    /// the other replica when the notification arrives; on SQLite the one process's counter.
    func testAnAnnouncementMovesEveryReplica() async throws {
        let (database, _) = try await TestPostgres.freshDatabase()
        defer { database.close() }
        let (told, other) = (
            StoreEngine.postgres(database).changeSignal(channel: "test_users"), StoreEngine.postgres(database).changeSignal(channel: "test_users")
        )
        let listeners = (told.services + other.services).map { service in Task { try await service.run() } }
        defer { for listener in listeners { listener.cancel() } }
        let settled = await HTTPProbe.eventually(within: .seconds(10)) { () -> (UInt64, UInt64)? in
            let counts = (told.counter.count, other.counter.count)
            return counts == (told.counter.count, other.counter.count) ? counts : nil
        }
        let (toldBefore, otherBefore) = try XCTUnwrap(settled, "both listen")
        try await told.announce()
        XCTAssertGreaterThan(told.counter.count, toldBefore, "the replica told moves before it answers")
        let moved = await HTTPProbe.eventually(within: .seconds(10)) { other.counter.count > otherBefore ? true : nil }
        XCTAssertNotNil(moved, "the other replica hears it")

        let local = ChangeSignal.local()
        let count = local.counter.count
        try await local.announce()
        XCTAssertEqual(local.counter.count, count + 1)
    }
}
