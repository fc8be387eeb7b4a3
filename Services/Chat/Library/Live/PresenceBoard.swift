import Contracts
import FileStorage
import Logging
import PostgresNIO
import PostgresStorage
import ServiceKit
import ServiceLifecycle

/// Who has a socket on which room, across the replicas sharing one PostgreSQL database, so that
/// push-svc leaves out a recipient whose app shows the room on any replica (the message event's
/// `present`). Each replica writes its own (room, user) pairs as they change, with a heartbeat;
/// a message's replica reads the others' with the room (`elsewhere(room:origin:)`). A replica
/// that stops beating (killed) counts for nobody once its heartbeat is `staleAfter` old, and its
/// rows are removed by the others later.
final class PresenceBoard: Service {
    static let heartbeat: Duration = .seconds(5)
    /// Milliseconds, database clock.
    static let staleAfter: Int64 = 15_000
    static let forgetAfter: Int64 = 10 * 60_000

    private let pool: PostgresPool
    private let origin: String
    private let present: @Sendable () -> Set<RoomPresence>
    private let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation
    private let logger: Logger

    /// `present`: this replica's pairs now (`RoomHub.presence`); `changes`: yielded to when they
    /// change (the hub's `presenceChanged`), keeping the newest only.
    init(
        pool: PostgresPool, origin: String, present: @escaping @Sendable () -> Set<RoomPresence>,
        changes: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation), logger: Logger
    ) {
        (self.pool, self.origin, self.present, self.logger) = (pool, origin, present, logger)
        (self.changes, changed) = changes
    }

    func run() async throws {
        let ticker = Task { [changed] in
            while !Task.isCancelled {
                changed.yield()
                try? await Task.sleep(for: Self.heartbeat)
            }
        }
        defer { ticker.cancel() }
        await cancelWhenGracefulShutdown {
            var written: Set<RoomPresence> = []
            for await _ in self.changes {
                do {
                    // A round stuck in the driver is left once the row it beats would be stale.
                    let before = written
                    written = try await abandoning(after: .milliseconds(Self.staleAfter)) { try await self.write(replacing: before) }
                } catch is CancellationError {
                    break
                } catch {
                    self.logger.warning("presence not written; trying again", metadata: ["error": "\(String(reflecting: error))"])
                }
                // Changes that come meanwhile fold into the next round.
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        // Leaving: nobody is present here any more (its rows go with it).
        _ = try? await pool.client.query("DELETE FROM replica WHERE origin = \(origin)", logger: logger)
    }

    /// One round: the heartbeat, and the pairs that came and went since `written`; answers what
    /// is written now. A replica whose row was removed (it stopped beating for long) writes all.
    private func write(replacing written: Set<RoomPresence>) async throws -> Set<RoomPresence> {
        let current = present()
        let logger = logger
        try await pool.transaction { connection in
            let recreated =
                try await connection.value(
                    Bool.self,
                    """
                    INSERT INTO replica (origin, seen_at) VALUES (\(origin), \(unescaped: Self.now))
                    ON CONFLICT (origin) DO UPDATE SET seen_at = excluded.seen_at RETURNING xmax = 0
                    """, logger: logger) ?? true
            let (added, removed) = recreated ? (current, []) : (current.subtracting(written), written.subtracting(current))
            if !removed.isEmpty {
                try await connection.query(
                    """
                    DELETE FROM presence WHERE origin = \(origin)
                    AND (room_id, user_id) IN (SELECT * FROM unnest(\(removed.map(\.roomID))::text[], \(removed.map(\.userID))::text[]))
                    """, logger: logger)
            }
            if !added.isEmpty {
                try await connection.query(
                    """
                    INSERT INTO presence (room_id, user_id, origin)
                    SELECT room, person, \(origin) FROM unnest(\(added.map(\.roomID))::text[], \(added.map(\.userID))::text[]) AS pair (room, person)
                    ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
            try await connection.query("DELETE FROM replica WHERE seen_at < \(unescaped: Self.now) - \(Self.forgetAfter)", logger: logger)
        }
        return current
    }

    /// A query of the users with a socket on `room` (an SQL expression) on a replica other than
    /// `origin` that is alive, for the message stores to read with the room.
    static func elsewhere(room: String, origin: String) -> String {
        precondition(ObjectID.isValid(origin), "an origin is an object id")
        return """
            SELECT DISTINCT presence.user_id FROM presence JOIN replica ON replica.origin = presence.origin
            WHERE presence.room_id = \(room) AND presence.origin <> '\(origin)' AND replica.seen_at > \(now) - \(staleAfter)
            """
    }

    /// The database's clock, so that replicas on several machines compare one clock.
    private static let now = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
}
