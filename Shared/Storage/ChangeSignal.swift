import Contracts
import Hummingbird
import PostgresStorage
import ServiceKit
import ServiceLifecycle

/// A change committed in another service's store that this service's caches copy (whom a reader
/// blocked or reported, a user's profile). The owner tells one replica before it answers the
/// request that made the change (`announce`); that moves the counter of every replica, and caches
/// key what they keep by `counter.count` read before asking the owner, so nothing asked for
/// before the change is served after it: the user's next request sees it.
package struct ChangeSignal: Sendable {
    package let counter: any CommitCounter
    package let announce: @Sendable () async throws -> Void
    /// What runs with the service group (PostgreSQL's listener).
    package let services: [any Service]

    /// One process holds every cache: its own counter is all there is to move.
    package static func local() -> ChangeSignal {
        let counter = LocalChangeCounter()
        return ChangeSignal(counter: counter, announce: { counter.bump() }, services: [])
    }

    /// The same signal, whose announcement also runs `then` (another counter of this replica that
    /// the same change moves).
    package func announcing(also then: @escaping @Sendable () -> Void) -> ChangeSignal {
        let announce = self.announce
        return ChangeSignal(
            counter: counter,
            announce: {
                try await announce()
                then()
            }, services: services)
    }

    /// Serves the owner's announcement (`InternalEndpoints.<Service>.usersChanged`).
    package func register(_ endpoint: InternalEndpoint<String, NoBody, EmptyAnswer>, on group: ServiceApplication.Group) {
        group.serve(endpoint) { _, _, _ in
            try await announce()
            return EmptyAnswer()
        }
    }
}

extension StoreEngine {
    /// On SQLite the service is one process (`local`). On PostgreSQL the replicas share the
    /// database: an announcement is a notification on `channel` that every replica's
    /// `PostgresChangeCounter` hears (the announcing one moves at once).
    package func changeSignal(channel: String) -> ChangeSignal {
        switch self {
        case .sqlite:
            return .local()
        case .postgres(let pool):
            let counter = PostgresChangeCounter(pool: pool, channel: channel)
            return ChangeSignal(counter: counter, announce: { try await counter.announce() }, services: [counter])
        }
    }
}
