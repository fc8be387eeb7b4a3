import Contracts
import Foundation
import GRDB
import GRDBSQLite

/// A consistent copy of a service's SQLite file while the service keeps writing: SQLite's online
/// backup in one step, inside one read transaction of a read-only connection of our own (in WAL
/// mode no writer waits for it), pages copied as they are into memory — `VACUUM INTO` rebuilt
/// every table and index into a file, several times the work — and what the manifest says of it.
package enum SQLiteSnapshot {
    package static func take(_ path: String, service: String, pace: WorkPace = .unpaced) throws -> (bytes: Data, part: BackupManifest.Part) {
        var configuration = Configuration()
        configuration.readonly = true
        let takenAt = GlintDate.nowMilliseconds()
        // Copied into memory, not a scratch file: writing tens of megabytes to the disk the
        // services write their WAL to is what slowed their answers most.
        let copy = try DatabaseQueue()
        try DatabaseQueue(path: path, configuration: configuration).backup(to: copy)
        var part = BackupManifest.Part(name: service + ".sqlite", sha256: "", bytes: 0, takenAt: takenAt)
        try describe(copy, into: &part)
        let bytes = try copy.inDatabase { db in try image(of: db) }
        part.sha256 = BackupManifest.digest(bytes, pace: pace)
        part.bytes = bytes.count
        part.service = service
        return (bytes, part)
    }

    /// The database as a file would hold it, marked as a rollback-journal file (header bytes
    /// 18 and 19): a WAL file read on its own needs its `-shm` beside it.
    static func image(of db: Database) throws -> Data {
        var size: sqlite3_int64 = 0
        guard let pointer = sqlite3_serialize(db.sqliteConnection, "main", &size, 0) else {
            throw DatabaseError(message: "the copy could not be read out of memory")
        }
        if size >= 20 { (pointer[18], pointer[19]) = (1, 1) }
        // SQLite's own copy handed over, not copied again: a store's size less to allocate.
        return Data(bytesNoCopy: pointer, count: Int(size), deallocator: .custom { pointer, _ in sqlite3_free(pointer) })
    }

    /// The schema level (GRDB's applied migrations), rows per table and SQLite's version.
    static func describe(_ copy: DatabaseQueue, into part: inout BackupManifest.Part) throws {
        part = try copy.inDatabase { db in
            var part = part
            part.engine = "sqlite"
            part.engineVersion = try String.fetchOne(db, sql: "SELECT sqlite_version()")
            part.migrations = try db.tableExists("grdb_migrations") ? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'")
            var counts: [String: Int] = [:]
            for table in tables { counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0 }
            part.rowCounts = counts
            return part
        }
    }

    /// `PRAGMA integrity_check` of a copy: nil when it says ok.
    package static func integrityProblem(_ path: String) throws -> String? {
        var configuration = Configuration()
        configuration.readonly = true
        let answer = try DatabaseQueue(path: path, configuration: configuration).read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check")
        }
        return answer == ["ok"] ? nil : answer.joined(separator: "; ")
    }
}
