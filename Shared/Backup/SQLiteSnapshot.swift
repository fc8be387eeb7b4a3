import Contracts
import Crypto
import Foundation
import GRDB

/// A consistent copy of a service's SQLite file while the service keeps writing: `VACUUM INTO`
/// on a read-only connection of our own — a read transaction in WAL mode, so no writer waits —
/// and what the manifest says of it, read from the copy.
package enum SQLiteSnapshot {
    package static func take(_ path: String, service: String, scratch: String) throws -> (bytes: Data, part: BackupManifest.Part) {
        var configuration = Configuration()
        configuration.readonly = true
        let copyPath = scratch + "/" + service + ".sqlite"
        try? FileManager.default.removeItem(atPath: copyPath)
        let takenAt = GlintDate.nowMilliseconds()
        try DatabaseQueue(path: path, configuration: configuration).inDatabase { db in
            try db.execute(sql: "VACUUM INTO ?", arguments: [copyPath])
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: copyPath))
        var part = BackupManifest.Part(
            name: service + ".sqlite", sha256: Hex.encode(SHA256.hash(data: bytes)), bytes: bytes.count, takenAt: takenAt)
        try describe(copyPath, into: &part)
        part.service = service
        try FileManager.default.removeItem(atPath: copyPath)
        return (bytes, part)
    }

    /// The schema level (GRDB's applied migrations), rows per table and SQLite's version.
    package static func describe(_ path: String, into part: inout BackupManifest.Part) throws {
        var configuration = Configuration()
        configuration.readonly = true
        try DatabaseQueue(path: path, configuration: configuration).inDatabase { db in
            part.engine = "sqlite"
            part.engineVersion = try String.fetchOne(db, sql: "SELECT sqlite_version()")
            part.migrations = try db.tableExists("grdb_migrations") ? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'")
            var counts: [String: Int] = [:]
            for table in tables { counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0 }
            part.rowCounts = counts
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
