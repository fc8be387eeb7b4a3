import GRDB
import Synchronization

/// A second writing connection to a pool's file, for `WriteBatcher`'s batches: a batch is written
/// on the caller's thread (an event loop) when SQLite's write lock is free at that moment, and
/// refused at once when another connection holds it — the caller then goes to the pool's writer
/// as before. So it never waits for anyone: it holds the loop for its own batch only, bounded by
/// the batcher. The hop to GRDB's writer queue and back costs two thread wake-ups per batch: under
/// auth-svc's refreshes the machine sat 11–12% idle waiting on them; written here, 5%, and 8–42%
/// more refreshes a second in alternating runs (Benchmarks/README, session 44).
///
/// Its commits do not checkpoint the WAL on the loop (a checkpoint copies pages for milliseconds):
/// every `checkpointEvery` commits it asks the pool's writer for a passive checkpoint instead,
/// which runs beside writers on GRDB's queue.
///
/// Public, as `WriteBatcher` is inlinable.
public final class SQLiteDirectWriter: Sendable {
    @usableFromInline let connection: DatabaseQueue
    @usableFromInline let pool: DatabasePool
    /// A batch commits about a page per row (a session row's leaf): 64 commits of the usual few
    /// rows stay under SQLite's own 1,000-page checkpoint mark, 64 bursts of 32 near twice it.
    @usableFromInline static let checkpointEvery = 64
    @usableFromInline let commits = Atomic<Int>(0)
    @usableFromInline let busy = Atomic<Int>(0)
    /// One checkpoint asked for at a time: a pool's writer kept busy does not gather a queue of them.
    @usableFromInline let checkpointing = Atomic<Bool>(false)

    /// Writes refused because another connection held the lock: how often the loop's batches went
    /// to the pool's writer after all.
    package var refused: Int { busy.load(ordering: .relaxed) }

    /// Opens `pool`'s (migrated) file again for writing.
    package init(beside pool: DatabasePool) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .immediateError
        configuration.prepareDatabase { db in
            try DatabaseFactory.prepare(db)
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        connection = try DatabaseQueue(path: pool.path, configuration: configuration)
        self.pool = pool
    }

    /// `updates` in an immediate transaction on this thread, committed; nil (nothing written)
    /// when another connection holds the write lock.
    @inlinable package func writeNow<T>(_ updates: (Database) throws -> T) throws -> T? {
        var result: T?
        do {
            try connection.inDatabase { db in
                try db.inTransaction(.immediate) {
                    result = try updates(db)
                    return .commit
                }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            busy.add(1, ordering: .relaxed)
            return nil
        }
        if commits.add(1, ordering: .relaxed).newValue % Self.checkpointEvery == 0 { checkpoint() }
        return result
    }

    @usableFromInline func checkpoint() {
        guard checkpointing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        Task {
            // A failed checkpoint (a reader on an old snapshot) loses nothing: the next one copies
            // the same pages, and the pool's own commits checkpoint too.
            _ = try? await pool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            checkpointing.store(false, ordering: .releasing)
        }
    }
}
