import PostgresStorage
import ServiceKit
import ServiceLifecycle
import Storage

/// Where a ban's long polls wait (`ChangeWaiters`): a ban on this replica wakes them after its
/// commit; on PostgreSQL a ban on another replica does too, by the `ban` table's notification.
struct BanBoard: Service {
    static let channel = "bans_changed"

    let waiters = ChangeWaiters()
    private let engine: StoreEngine

    init(engine: StoreEngine) {
        self.engine = engine
    }

    func run() async throws {
        // One process on SQLite: its own bans wake its polls; nothing to listen to until it stops.
        guard case .postgres(let pool) = engine else { return try await gracefulShutdown() }
        await cancelWhenGracefulShutdown {
            // On (re)connecting, wake the polls too: a notification missed while away is not resent.
            await pool.listen(on: Self.channel, connected: { _ in waiters.changed() }, received: { _, _ in waiters.changed() })
        }
    }
}
