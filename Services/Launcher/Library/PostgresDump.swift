import Backup
import Contracts
import Foundation
import Logging
import NIOPosix
import PostgresNIO
import PostgresStorage
import ServiceKit
import Synchronization

/// A service's PostgreSQL database in a snapshot (`<service>.pgdump`): `pg_dump`'s custom format,
/// taken in a snapshot that a repeatable-read transaction of ours exports. The manifest's schema
/// level and row counts are read in that same transaction, so they describe exactly what was
/// dumped. Restored with `pg_restore` into an empty database.
enum PostgresDump {
    /// The dump's digest is taken at `pace` on NIO's blocking-work threads, after the transaction ends.
    static func take(
        service: ServiceName, url: String, tools: PostgresTools, pace: WorkPace = .unpaced, logger: Logger
    ) async throws -> (Data, BackupManifest.Part) {
        let pool = try PostgresPool(url: url, logger: logger, maximumConnections: 1)
        defer { pool.close() }
        return try await pool.client.withConnection { connection in
            let takenAt = GlintDate.nowMilliseconds()
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let snapshot = try await connection.query("SELECT pg_export_snapshot()", logger: logger).decode(String.self).first { _ in true }
                    .orThrow()
                var part = BackupManifest.Part(name: service.rawValue + ".pgdump", sha256: "", bytes: 0, takenAt: takenAt)
                try await describe(connection, into: &part, logger: logger)
                let dump = try await tools.run(
                    "pg_dump", ["--format=custom", "--no-owner", "--no-privileges", "--snapshot=\(snapshot)"], database: url)
                try await connection.query("COMMIT", logger: logger)
                part.sha256 = try await NIOThreadPool.singleton.runIfActive { BackupManifest.digest(dump, pace: pace) }
                part.bytes = dump.count
                part.service = service.rawValue
                return (dump, part)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// The server's version, the migrations applied and rows per table, as the transaction sees them.
    private static func describe(_ connection: PostgresConnection, into part: inout BackupManifest.Part, logger: Logger) async throws {
        part.engine = "postgresql"
        part.engineVersion = try await connection.query("SELECT current_setting('server_version')", logger: logger).decode(String.self)
            .first { _ in true }
        var migrations: [String] = []
        let known = try await connection.query("SELECT to_regclass('schema_migration') IS NOT NULL", logger: logger).decode(Bool.self)
        if try await known.first(where: { _ in true }) == true {
            for try await name in try await connection.query("SELECT name FROM schema_migration ORDER BY applied_at, name", logger: logger)
                .decode(String.self)
            {
                migrations.append(name)
            }
        }
        part.migrations = migrations
        var tables: [String] = []
        for try await table in try await connection.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename", logger: logger
        ).decode(String.self) {
            tables.append(table)
        }
        var counts: [String: Int] = [:]
        for table in tables {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(quoted)"), logger: logger).decode(Int64.self)
            counts[table] = Int(try await rows.first { _ in true } ?? 0)
        }
        part.rowCounts = counts
    }

    /// Refused unless the database has no tables yet: a restore never merges into data.
    static func checkEmpty(_ url: String, logger: Logger) async throws -> Bool {
        let pool = try PostgresPool(url: url, logger: logger, maximumConnections: 1)
        defer { pool.close() }
        let rows = try await pool.client.query("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", logger: logger).decode(Int64.self)
        return try await rows.first { _ in true } == 0
    }

    static func restore(_ dump: Data, into url: String, tools: PostgresTools) async throws {
        _ = try await tools.run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error"], database: url, input: dump)
    }

    /// Nil when `pg_restore` reads the archive's table of contents.
    static func problem(_ dump: Data, tools: PostgresTools) async -> String? {
        do {
            _ = try await tools.run("pg_restore", ["--list"], input: dump)
            return nil
        } catch {
            return "not a readable pg_dump archive"
        }
    }
}

/// Where `pg_dump` and `pg_restore` are (`BACKUP_PG_BIN`, else the `PATH`); they should be of the
/// server's major version or newer.
package struct PostgresTools: Sendable {
    package var directory: String?

    package init(directory: String?) {
        self.directory = directory
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a tool on NIO's blocking-work threads: its output, or why it failed (its stderr). The
    /// database's URL goes in without its password, which is passed in the tool's environment
    /// (`PGPASSWORD`): a command line is visible to every user of the machine.
    func run(_ tool: String, _ arguments: [String], database: String? = nil, input: Data? = nil) async throws -> Data {
        let path = directory.map { $0 + "/" + tool } ?? tool
        var arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        if let database, var parts = URLComponents(string: database) {
            if let password = parts.password { environment["PGPASSWORD"] = password.removingPercentEncoding ?? password }
            parts.password = nil
            arguments.append("--dbname=" + (parts.string ?? database))
        }
        return try await NIOThreadPool.singleton.runIfActive { [arguments, environment] in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: directory == nil ? "/usr/bin/env" : path)
            process.arguments = directory == nil ? [tool] + arguments : arguments
            process.environment = environment
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            let stdin = Pipe()
            process.standardInput = input == nil ? FileHandle.nullDevice : stdin
            try process.run()
            // Fed and drained concurrently: either side may fill its pipe first.
            let others = DispatchGroup()
            if let input {
                DispatchQueue.global().async(group: others) {
                    stdin.fileHandleForWriting.write(input)
                    try? stdin.fileHandleForWriting.close()
                }
            }
            let errorText = Mutex(Data())
            DispatchQueue.global().async(group: others) { errorText.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            others.wait()
            guard process.terminationStatus == 0 else {
                let message = String(decoding: errorText.withLock { $0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                throw Failed(description: "\(tool) exited with \(process.terminationStatus): \(message.prefix(500))")
            }
            return data
        }
    }
}
