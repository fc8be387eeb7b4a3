import Logging
import ServiceKit
import ServiceLifecycle
import Storage

/// The room hub a replica's sockets are on and, on PostgreSQL, what makes the replicas act as
/// one: the listener that delivers every replica's messages (`LiveFrameListener`) and the board
/// of who is present on which replica (`PresenceBoard`). On SQLite (one process) the hub alone.
struct ReplicaParts {
    let hub: RoomHub
    let listener: LiveFrameListener?
    let presence: PresenceBoard?

    init(engine: StoreEngine, origin: String, logger: Logger) {
        guard case .postgres(let pool) = engine else {
            (hub, listener, presence) = (RoomHub(), nil, nil)
            return
        }
        let changes = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let hub = RoomHub(presenceChanged: { changes.continuation.yield() })
        self.hub = hub
        listener = LiveFrameListener(pool: pool, origin: origin, hub: hub, logger: logger)
        presence = PresenceBoard(pool: pool, origin: origin, present: { hub.presence() }, changes: changes, logger: logger)
    }

    var services: [any Service] {
        [listener as (any Service)?, presence].compactMap { $0 }
    }
}
