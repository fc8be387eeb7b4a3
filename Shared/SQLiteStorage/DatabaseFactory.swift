import Foundation
import GRDB
import ServiceKit

/// The one way services open their SQLite file: a `DatabasePool` (WAL), `synchronous=NORMAL`
/// (durable across process crashes, fast), a busy wait so writers queue instead of failing,
/// foreign keys on, reads through a memory map, and the service's migrations applied before
/// anything else runs.
package enum DatabaseFactory {
    package static func openPool(at path: String, migrator: DatabaseMigrator) throws -> DatabasePool {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // 50,000 tries 100 µs apart (5 s of sleeps, more with the timer's slack): SQLite's own
        // timeout sleeps 1, 2, 5, 10… ms between tries, a millisecond or more added to a write that
        // met auth-svc's rotations (written by a connection of their own, `SQLiteDirectWriter`)
        // holding the lock for tens of µs.
        configuration.busyMode = .callback { tries in
            guard tries < 50_000 else { return false }
            usleep(100)
            return true
        }
        configuration.prepareDatabase(prepare)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try migrator.migrate(pool)
        return pool
    }

    /// Every connection to a service's file, the pool's and those opened beside it
    /// (`SQLiteLookups`, `SQLiteDirectWriter`).
    @Sendable package static func prepare(_ db: Database) throws {
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        // Reads come straight from the OS page cache, shared by all connections, instead of
        // each connection's own 2 MB cache: index lookups scattered over a large file (geo's
        // radius search joins hundreds of rows by id) stop costing a read() call each.
        try db.execute(sql: "PRAGMA mmap_size = 1073741824")
    }

    /// A health probe: the file answers a read.
    package static func check(_ pool: DatabasePool) async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }
}
