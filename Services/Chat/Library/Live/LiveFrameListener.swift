import Logging
import PostgresNIO
import PostgresStorage
import ServiceKit
import ServiceLifecycle
import Synchronization

/// Sockets of one room may be on any replica sharing the PostgreSQL database. A replica that
/// stores a message stores its frame beside it and announces it (`NOTIFY`, payload: origin,
/// sequence number, time logged) when it commits; every replica's listener emits each frame to
/// its own sockets as the announcements come, so every replica delivers a room's messages in the
/// order the database committed them (a replica's own frames wait in memory for their turn; the
/// others' are read from the table). A notification cannot be read again, so a listener whose
/// connection broke catches up from the frames logged since shortly before the last one it had
/// (its first connection: since the replica started).
final class LiveFrameListener: Service, Sendable {
    static let channel = "glint_chat_live"
    /// Frames are kept this long (milliseconds), long enough for any reconnect's catch-up.
    static let retention: Int64 = 10 * 60_000
    /// How far back a catch-up reads from the last frame seen: transactions commit out of
    /// sequence order, so a frame of a lower number may have landed after it.
    static let catchUpMargin: Int64 = 30_000
    /// Own frames waiting for their announcement, at most (beyond, the oldest are read back from
    /// the table when their turn comes).
    static let waitingLimit = 10_000

    let pool: PostgresPool
    let origin: String
    let hub: RoomHub
    let logger: Logger
    private let frames = Mutex(Frames())
    /// Sockets may connect (and messages be stored) before the first `LISTEN` is in place: the
    /// first catch-up reads what was logged since this replica started.
    private let started = ContinuousClock.now

    /// What the store's writers and the listener share.
    private struct Frames {
        var waiting: [Int64: LiveFrame] = [:]
        var delivered = RecentSet(capacity: 50_000)
    }

    init(pool: PostgresPool, origin: String, hub: RoomHub, logger: Logger) {
        (self.pool, self.origin, self.hub, self.logger) = (pool, origin, hub, logger)
    }

    /// A frame this replica stored (committed as `seq`): its sockets get it in its turn.
    func stored(_ frame: LiveFrame, seq: Int64) {
        frames.withLock { frames in
            guard !frames.delivered.contains(seq) else { return }
            frames.waiting[seq] = frame
            if frames.waiting.count > Self.waitingLimit, let oldest = frames.waiting.keys.min() { frames.waiting.removeValue(forKey: oldest) }
        }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            // The newest frame time announced or read (database clock).
            var lastSeen: Int64?
            var lastPrune: Int64 = 0
            await self.pool.listen(
                on: Self.channel,
                connected: { connection in
                    let now = try await self.catchUp(connection, lastSeen: lastSeen)
                    (lastSeen, lastPrune) = (now, now)
                },
                received: { connection, notification in
                    let parts = notification.payload.split(separator: " ")
                    guard parts.count == 3, let seq = Int64(parts[1]), let logged = Int64(parts[2]) else { return }
                    lastSeen = max(lastSeen ?? logged, logged)
                    try await self.announced(seq, connection)
                    if logged - lastPrune > 60_000 {
                        try await self.prune(connection, before: logged - Self.retention)
                        lastPrune = logged
                    }
                }
            )
        }
    }

    /// Once listening: the frames logged since shortly before the last one seen (the first time:
    /// since this replica started) that were not sent yet, old frames pruned. Answers the newest
    /// time seen: the database's time now.
    private func catchUp(_ connection: PostgresConnection, lastSeen: Int64?) async throws -> Int64 {
        let now = try await connection.value(Int64.self, "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint", logger: logger) ?? 0
        let uptime = Int64((ContinuousClock.now - started) / .milliseconds(1))
        let since = lastSeen.map { $0 - Self.catchUpMargin } ?? now - uptime - 1_000
        let missed = try await read(connection, "logged_at >= \(since)").filter { !wasDelivered($0.seq) }
        if !missed.isEmpty { logger.info("live frames caught up", metadata: ["frames": "\(missed.count)", "first": "\(lastSeen == nil)"]) }
        for stored in missed { deliver(stored.frame, seq: stored.seq) }
        try await prune(connection, before: now - Self.retention)
        return now
    }

    /// The frame announced as `seq`, in its turn.
    private func announced(_ seq: Int64, _ connection: PostgresConnection) async throws {
        let turn = frames.withLock { frames -> Turn in
            if frames.delivered.contains(seq) { return .delivered }
            return frames.waiting.removeValue(forKey: seq).map(Turn.own) ?? .another
        }
        switch turn {
        case .delivered: return
        case .own(let frame): deliver(frame, seq: seq)
        case .another: for stored in try await read(connection, "seq = \(seq)") { deliver(stored.frame, seq: stored.seq) }
        }
    }

    /// An announced frame: already sent (a catch-up had it), this replica's own (in memory), or
    /// another replica's (in the table).
    private enum Turn {
        case delivered
        case own(LiveFrame)
        case another
    }

    private func wasDelivered(_ seq: Int64) -> Bool {
        frames.withLock { $0.delivered.contains(seq) }
    }

    private func deliver(_ frame: LiveFrame, seq: Int64) {
        frames.withLock { frames in
            frames.delivered.insert(seq)
            frames.waiting.removeValue(forKey: seq)
        }
        hub.broadcast(frame)
    }

    private func read(_ connection: PostgresConnection, _ condition: PostgresQuery) async throws -> [(seq: Int64, frame: LiveFrame)] {
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT seq, room_id, event, json FROM live_frame WHERE \(condition.sql) ORDER BY seq", binds: condition.binds),
            logger: logger
        )
        var frames: [(seq: Int64, frame: LiveFrame)] = []
        for try await (seq, room, event, json) in rows.decode((Int64, String, String, String).self) {
            frames.append((seq, LiveFrame(roomID: room, event: event, json: json)))
        }
        return frames
    }

    /// Every replica prunes; the statements are idempotent.
    private func prune(_ connection: PostgresConnection, before time: Int64) async throws {
        try await connection.query("DELETE FROM live_frame WHERE logged_at < \(time)", logger: logger)
    }
}
