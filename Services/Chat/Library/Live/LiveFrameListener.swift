import Logging
import PostgresNIO
import ServiceKit
import ServiceLifecycle

/// Sockets of one room may be on any replica sharing the PostgreSQL database. A replica that
/// stores a message stores its frame beside it and announces it (`NOTIFY`, payload: origin and
/// sequence number) when the transaction commits; every other replica's listener reads the frame
/// and emits it to its own sockets. A notification cannot be read again, so a listener whose
/// connection broke catches up from the frames logged since shortly before the last one it had.
final class LiveFrameListener: Service, Sendable {
    static let channel = "glint_chat_live"
    /// Frames are kept this long (milliseconds), long enough for any reconnect's catch-up.
    static let retention: Int64 = 10 * 60_000
    /// How far back a catch-up reads from the last frame seen: transactions commit out of
    /// sequence order, so a frame of a lower number may have landed after it.
    static let catchUpMargin: Int64 = 30_000

    let pool: PostgresPool
    let origin: String
    let hub: RoomHub
    let logger: Logger

    init(pool: PostgresPool, origin: String, hub: RoomHub, logger: Logger) {
        (self.pool, self.origin, self.hub, self.logger) = (pool, origin, hub, logger)
    }

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            var position = Position()
            while !Task.isCancelled {
                let listened = position.lastSeen
                do {
                    try await self.listen(&position)
                } catch where !Task.isCancelled {
                    self.logger.warning("live frame listener lost its connection; reconnecting", metadata: ["error": "\(String(reflecting: error))"])
                }
                // At once after a connection that had worked; a little later while the database is away.
                try? await Task.sleep(for: position.lastSeen == listened ? .seconds(1) : .milliseconds(50))
            }
        }
    }

    /// Where the listener is: the newest frame time seen (database clock) and the frames delivered lately.
    struct Position {
        var lastSeen: Int64?
        var delivered = RecentSet(capacity: 50_000)
    }

    private func listen(_ position: inout Position) async throws {
        try await pool.client.withConnection { connection in
            try await connection.listen(on: Self.channel) { notifications in
                // Listening from here on; what came before is in the table.
                let now = try await connection.value(Int64.self, "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint", logger: logger) ?? 0
                if let lastSeen = position.lastSeen {
                    let frames = try await self.frames(connection, "logged_at >= \(lastSeen - Self.catchUpMargin) AND origin <> \(origin)")
                    let missed = frames.filter { !position.delivered.contains($0.seq) }
                    if !missed.isEmpty { logger.info("live frames caught up after a reconnect", metadata: ["frames": "\(missed.count)"]) }
                    for frame in missed { self.deliver(frame, &position) }
                }
                position.lastSeen = max(position.lastSeen ?? now, now)
                try await self.prune(connection, before: now - Self.retention)
                var lastPrune = now
                for try await notification in notifications {
                    let parts = notification.payload.split(separator: " ")
                    guard parts.count == 2, let seq = Int64(parts[1]) else { continue }
                    guard parts[0] != origin, !position.delivered.contains(seq) else { continue }
                    for frame in try await self.frames(connection, "seq = \(seq)") { self.deliver(frame, &position) }
                    if let lastSeen = position.lastSeen, lastSeen - lastPrune > 60_000 {
                        try await self.prune(connection, before: lastSeen - Self.retention)
                        lastPrune = lastSeen
                    }
                }
            }
        }
    }

    private struct StoredFrame {
        var seq, loggedAt: Int64
        var frame: LiveFrame
    }

    private func frames(_ connection: PostgresConnection, _ condition: PostgresQuery) async throws -> [StoredFrame] {
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT seq, logged_at, room_id, event, json FROM live_frame WHERE \(condition.sql) ORDER BY seq", binds: condition.binds),
            logger: logger
        )
        var frames: [StoredFrame] = []
        for try await (seq, loggedAt, room, event, json) in rows.decode((Int64, Int64, String, String, String).self) {
            frames.append(StoredFrame(seq: seq, loggedAt: loggedAt, frame: LiveFrame(roomID: room, event: event, json: json)))
        }
        return frames
    }

    private func deliver(_ stored: StoredFrame, _ position: inout Position) {
        position.delivered.insert(stored.seq)
        position.lastSeen = max(position.lastSeen ?? stored.loggedAt, stored.loggedAt)
        hub.broadcast(stored.frame)
    }

    /// Every replica prunes; the statements are idempotent.
    private func prune(_ connection: PostgresConnection, before time: Int64) async throws {
        try await connection.query("DELETE FROM live_frame WHERE logged_at < \(time)", logger: logger)
    }
}
