import Foundation
import GRDB
import Synchronization

/// Key lookups answered on the caller's thread, an event loop's included, instead of hopping to
/// GRDB's queues and back: on auth-svc's `/health` those hops cost more CPU (~90 µs) than the
/// lookup. Only for index lookups whose answer is bounded (one row, an existence check): in WAL
/// mode a reader never waits for the writer and pages come from the memory map, so the thread is
/// held for microseconds. Scans, sorts and lists that grow with the data stay on GRDB's `read`.
///
/// Its own read-only connections, apart from the service's pool: the pool's `async` reads hold
/// their reader until their task resumes on an event loop, so a loop waiting for one of those
/// readers could wait for itself. These connections are only ever held by a synchronous closure,
/// so a wait for one is a wait for someone else's lookup to end.
///
/// They are plain connections taken in turn, not a second `DatabasePool`: a pool's `read` took a
/// reader through a semaphore and a lock and parsed `BEGIN` and `COMMIT` anew each time, three
/// times the lookup's own statement (auth-svc's session check under profile reads: 12.8% of its
/// CPU, the statement 3.2; now 5.8%; Benchmarks/README, session 46). Here the snapshot's `BEGIN`
/// and `COMMIT` are statements compiled once.
public final class SQLiteLookups: Sendable {
    @usableFromInline let connections: [DatabaseQueue]
    @usableFromInline let turn = Atomic<Int>(0)

    /// Opens `writer`'s file again, read-only (it must be migrated: its tables are read here), a
    /// connection per core: each caller holds one for microseconds.
    package init(beside writer: DatabasePool) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase(DatabaseFactory.prepare)
        connections = try (0..<max(2, ProcessInfo.processInfo.activeProcessorCount)).map { _ in
            try DatabaseQueue(path: writer.path, configuration: configuration)
        }
    }

    /// `value` on a fresh snapshot of the last commit, as GRDB's `read` would see it: every
    /// statement it runs reads the same commit.
    @inlinable
    public func readNow<T>(_ value: (Database) throws -> T) throws -> T {
        let index = turn.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max
        return try connections[index % connections.count].inDatabase { db in
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            defer {
                // COMMIT fails when SQLite already ended the snapshot after an error (nothing left
                // to do); should it fail with the snapshot still open, roll it back (a read-only one
                // has nothing to lose), or the connection's next BEGIN would fail.
                if (try? db.cachedStatement(sql: "COMMIT TRANSACTION").execute()) == nil, db.isInsideTransaction {
                    try? db.rollback()
                }
            }
            return try value(db)
        }
    }
}
