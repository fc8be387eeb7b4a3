import GRDB

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
public struct SQLiteLookups: Sendable {
    @usableFromInline let pool: DatabasePool

    /// Opens `writer`'s file again, read-only (it must be migrated: its tables are read here).
    package init(beside writer: DatabasePool) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase(DatabaseFactory.prepare)
        pool = try DatabasePool(path: writer.path, configuration: configuration)
    }

    /// `value` on a fresh snapshot of the last commit, as GRDB's `read` would see it.
    @inlinable
    public func readNow<T>(_ value: (Database) throws -> T) throws -> T {
        try pool.read(value)
    }
}
