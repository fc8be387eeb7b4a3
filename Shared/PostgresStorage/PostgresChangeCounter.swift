import Logging
import PostgresNIO
import ServiceKit
import ServiceLifecycle
import Synchronization

/// `CommitCounter` of some tables on PostgreSQL, where other replicas (and operators) write
/// too: triggers on the tables (`triggers(channel:tables:)`, part of the service's migrations)
/// notify `channel` when a transaction that changed them commits, and every replica's counter
/// moves when told. A replica's own writes also move it at once (`bump()` after the commit), so
/// a client reads what it just wrote from the replica it wrote to; another replica follows
/// within the notification's delay.
///
/// While no connection listens, a change would go unnoticed: every read of `count` is then a
/// new number, so no cache keeps anything until listening resumes (which counts as a change).
package final class PostgresChangeCounter: CommitCounter, Service {
    private let pool: PostgresPool
    private let channel: String
    private let commits = Atomic<UInt64>(0)
    private let listening = Atomic<Bool>(false)

    package init(pool: PostgresPool, channel: String) {
        (self.pool, self.channel) = (pool, channel)
    }

    package var count: UInt64 {
        if listening.load(ordering: .acquiring) { return commits.load(ordering: .acquiring) }
        return commits.add(1, ordering: .acquiringAndReleasing).newValue
    }

    /// After this replica committed a change to the tables.
    package func bump() {
        commits.add(1, ordering: .releasing)
    }

    /// A change made outside the database (another service's commit that caches here copy):
    /// every replica is told, this one at once.
    package func announce() async throws {
        try await pool.client.query("SELECT pg_notify(\(channel), '')", logger: pool.logger)
        bump()
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.pool.listen(
                on: self.channel,
                connected: { _ in
                    self.listening.store(true, ordering: .releasing)
                    self.bump()
                },
                received: { _, _ in self.bump() },
                disconnected: { self.listening.store(false, ordering: .releasing) }
            )
        }
    }

    /// Migration statements: any statement changing one of `tables` notifies `channel` (one
    /// notification per transaction, as PostgreSQL folds identical ones), whoever runs it.
    package static func triggers(channel: String, tables: [String]) -> [String] {
        let function = "notify_\(channel)"
        return [
            """
            CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('\(channel)', ''); RETURN NULL; END $$
            """
        ]
            + tables.map { table in
                "CREATE TRIGGER \(table)_notifies AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(table) FOR EACH STATEMENT EXECUTE FUNCTION \(function)()"
            }
    }
}
