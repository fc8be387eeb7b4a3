import AsyncHTTPClient
import Backup
import Contracts
import FileStorage
import Foundation
import GRDB
import Logging
import NIOPosix
import Outbox
import PostgresStorage
import ServiceKit
import ZlibCoding

/// `glint backup create | list | verify | restore`: a snapshot is one gzipped tar archive holding
/// `manifest.json`, each service's store copied while the suite keeps serving (its SQLite file,
/// `SQLiteSnapshot`, or its PostgreSQL database, `PostgresDump`), and the uploaded files under
/// `DATA_DIR/files`, kept in a `BackupStore` (a folder, by default `DATA_DIR/backups`, or a
/// bucket). The stores' copies and the gzipped archive are held in memory (the tar is never
/// joined: its pieces go to zlib one by one): fine for the stores this has been run on, a
/// streaming writer into the target before large ones.
package enum Backups {
    package static let archiveSuffix = ".tar.gz"

    /// Where each service's store is: the PostgreSQL database its `<SVC>_DATABASE_URL` names, else
    /// its SQLite file in the data folder; and the PostgreSQL tools to copy databases with.
    package struct Sources: Sendable {
        package var dataDirectory: String
        package var databases: [ServiceName: String]
        package var tools: PostgresTools
        /// Services asked for a copy of a SQLite file that is not in `dataDirectory` (their
        /// `<SVC>_URL`; geo-svc's volume in Kubernetes), with the internal secret.
        package var asked: [ServiceName: String]
        package var internalSecret: String
        /// How fast a snapshot digests every part (store copies, dumps, uploads) and compresses them (`BACKUP_CPU_PERCENT`).
        package var pace: WorkPace

        package init(
            dataDirectory: String, databases: [ServiceName: String] = [:], tools: PostgresTools = PostgresTools(directory: nil),
            asked: [ServiceName: String] = [:], internalSecret: String = "", pace: WorkPace = .unpaced
        ) {
            (self.dataDirectory, self.databases, self.tools) = (dataDirectory, databases, tools)
            (self.asked, self.internalSecret, self.pace) = (asked, internalSecret, pace)
        }
    }

    /// Takes a snapshot into `store`; answers its manifest (its id names the archive).
    package static func create(from sources: Sources, into store: BackupStore) async throws -> BackupManifest {
        let startedAt = GlintDate.nowMilliseconds()
        let id = snapshotID(at: startedAt)
        var entries: [TarArchive.Entry] = []
        var parts: [BackupManifest.Part] = []
        for service in ServiceCatalog.backupOrder {
            let (bytes, part): (Data, BackupManifest.Part)
            if let url = sources.databases[service] {
                (bytes, part) = try await PostgresDump.take(service: service, url: url, tools: sources.tools, pace: sources.pace, logger: logger)
            } else {
                let path = sources.dataDirectory + "/" + service.rawValue + ".sqlite"
                if FileManager.default.fileExists(atPath: path) {
                    // Copying reads for a while: on NIO's blocking-work threads, not the few that run every task.
                    (bytes, part) = try await NIOThreadPool.singleton.runIfActive {
                        try SQLiteSnapshot.take(path, service: service.rawValue, pace: sources.pace)
                    }
                } else if let url = sources.asked[service] {
                    (bytes, part) = try await askSnapshot(of: service, at: url, secret: sources.internalSecret)
                } else {
                    continue
                }
            }
            entries.append(TarArchive.Entry(name: part.name, bytes: bytes))
            parts.append(part)
        }
        let (files, fileParts) = try await NIOThreadPool.singleton.runIfActive {
            try uploadedFiles(in: sources.dataDirectory, since: startedAt, pace: sources.pace)
        }
        let manifest = BackupManifest(id: id, startedAt: startedAt, finishedAt: GlintDate.nowMilliseconds(), parts: parts + fileParts)
        let manifestEntry = TarArchive.Entry(name: "manifest.json", bytes: Data(buffer: JSONCoding.encode(manifest)))
        let all = [manifestEntry] + entries + files
        let archive = try await NIOThreadPool.singleton.runIfActive { try TarArchive.gzipped(all, pace: sources.pace) }
        try await store.put(manifest.id, archive, manifest)
        return manifest
    }

    /// A copy of the service's file, from the service (`SnapshotRoute`).
    static func askSnapshot(of service: ServiceName, at url: String, secret: String) async throws -> (Data, BackupManifest.Part) {
        var request = HTTPClientRequest(url: url + InternalEndpoints.snapshotPath)
        request.headers.add(name: InternalHeader.secret, value: secret)
        let answer = try await HTTPClient.shared.execute(request, timeout: .minutes(10))
        guard answer.status == .ok else {
            throw ServiceError(.upstreamFailed, "\(service.rawValue) answered \(answer.status) for a copy of its store")
        }
        return try SnapshotRoute.read(Data(buffer: try await answer.body.collect(upTo: Int(Int32.max))))
    }

    /// The uploads under `DATA_DIR/files`, each with its part, and under their names again those
    /// removed since `startedAt` (`LocalFileBackend` keeps them a while): a store copied before
    /// their removal may still point at them.
    package static func uploadedFiles(
        in dataDirectory: String, since startedAt: Int64, pace: WorkPace = .unpaced
    ) throws -> ([TarArchive.Entry], [BackupManifest.Part]) {
        var entries: [TarArchive.Entry] = []
        var parts: [BackupManifest.Part] = []
        func add(_ path: String, as name: String) throws {
            let takenAt = GlintDate.nowMilliseconds()
            let bytes: Data
            do {
                bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch  where !FileManager.default.fileExists(atPath: path) {
                // Removed since it was listed: it is among the removed ones, taken next.
                return
            }
            entries.append(TarArchive.Entry(name: name, bytes: bytes))
            parts.append(BackupManifest.Part(name: name, sha256: BackupManifest.digest(bytes, pace: pace), bytes: bytes.count, takenAt: takenAt))
        }
        func names(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }
        let files = dataDirectory + "/files"
        for area in names(files) where area != LocalFileBackend.deletedFolder {
            for name in names(files + "/" + area) { try add(files + "/" + area + "/" + name, as: "files/" + area + "/" + name) }
        }
        let deleted = files + "/" + LocalFileBackend.deletedFolder
        var taken = Set(parts.map(\.name))
        for stamp in names(deleted) where (Int64(stamp) ?? 0) >= startedAt {
            for area in names(deleted + "/" + stamp) {
                for name in names(deleted + "/" + stamp + "/" + area) where taken.insert("files/" + area + "/" + name).inserted {
                    try add(deleted + "/" + stamp + "/" + area + "/" + name, as: "files/" + area + "/" + name)
                }
            }
        }
        return (entries, parts)
    }

    static let logger = Logger(label: "glint-backup")

    /// An archive's entries: a gzipped tar.
    static func entries(of archive: Data) throws -> [TarArchive.Entry] {
        try TarArchive.decode(try Gzip.decompress(archive, limit: 1 << 36))
    }

    /// `create`, then `prune` to `keep`, with how it ended recorded (`BackupStatusFile`): a
    /// scheduled round and `glint backup create` alike.
    package static func run(
        from sources: Sources, into store: BackupStore, keep: Int?
    ) async throws -> (
        manifest: BackupManifest, removed: [String]
    ) {
        let dataDirectory = sources.dataDirectory
        var taken: (manifest: BackupManifest, removed: [String])?
        var failure: (any Error)?
        do {
            if let keep, keep < 1 { throw ServiceError.badRequest("keep at least one snapshot (asked: \(keep))") }
            let manifest = try await create(from: sources, into: store)
            var removed: [String] = []
            if let keep { removed = try await prune(keep: keep, in: store) }
            taken = (manifest, removed)
        } catch {
            failure = error
        }
        let (snapshot, error, now) = (taken?.manifest.id, failure.map { "\($0)" }, GlintDate.nowMilliseconds())
        try? BackupStatusFile.record(in: dataDirectory, snapshot: snapshot, error: error, at: now)
        // Where the store keeps it too (a bucket a run on another machine writes to); a store that
        // failed may not take it, which the last success's age then shows.
        let previous = try? await store.status()
        try? await store.recordStatus(BackupStatusFile.updated(previous ?? nil, snapshot: snapshot, error: error, at: now))
        if let failure { throw failure }
        return try taken.orThrow()
    }

    /// The snapshots in the store, oldest first (ids taken within one second sort by their
    /// start, not by their random ends).
    package static func list(in store: BackupStore) async throws -> [BackupManifest] {
        var manifests: [BackupManifest] = []
        for id in try await store.ids() {
            if let manifest = try? await store.manifest(id) { manifests.append(manifest) }
        }
        return manifests.sorted { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
    }

    /// Keeps the newest `keep` snapshots of the store and removes the others (`BACKUP_KEEP`);
    /// answers the ids removed, oldest first. An archive whose manifest cannot be read is not
    /// counted and not removed: what cannot be told apart is left to an operator.
    package static func prune(keep: Int, in store: BackupStore) async throws -> [String] {
        guard keep >= 1 else { throw ServiceError.badRequest("keep at least one snapshot (asked: \(keep))") }
        let removed = try await list(in: store).dropLast(keep).map(\.id)
        for id in removed { try await store.remove(id) }
        return removed
    }

    /// What is wrong with a snapshot: a part missing, changed or extra; a store failing SQLite's
    /// integrity check. Empty when it can be restored.
    package static func verify(id: String, in store: BackupStore, tools: PostgresTools = PostgresTools(directory: nil)) async throws -> [String] {
        guard id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { throw ServiceError.badRequest("not a snapshot id: \(id)") }
        let entries: [TarArchive.Entry]
        do {
            entries = try Self.entries(of: try await store.archive(id))
        } catch {
            return ["\(id): \(error)"]
        }
        guard let manifest = try? manifest(in: entries) else { return ["\(id): no manifest"] }
        var problems: [String] = []
        let contents = Dictionary(entries.dropFirst().map { ($0.name, $0.bytes) }) { first, _ in first }
        for part in manifest.parts {
            guard let bytes = contents[part.name] else {
                problems.append("\(part.name): missing")
                continue
            }
            if bytes.count != part.bytes || BackupManifest.digest(bytes) != part.sha256 {
                problems.append("\(part.name): its checksum does not match")
            }
            if part.engine == "postgresql", let problem = await PostgresDump.problem(bytes, tools: tools) {
                problems.append("\(part.name): \(problem)")
            }
            if part.engine == "sqlite" {
                let scratch = try ScratchFolder.make()
                defer { try? FileManager.default.removeItem(atPath: scratch) }
                let path = scratch + "/" + part.name
                try bytes.write(to: URL(fileURLWithPath: path))
                let problem: String?
                do {
                    problem = try SQLiteSnapshot.integrityProblem(path)
                } catch {
                    problem = "not an SQLite file"
                }
                if let problem { problems.append("\(part.name): \(problem)") }
            }
        }
        for name in Set(contents.keys).subtracting(manifest.parts.map(\.name)) { problems.append("\(name): not in the manifest") }
        return problems
    }

    /// What a restore wrote: the snapshot's manifest, and per store how many outbox messages it
    /// will send again.
    package struct Restored: Sendable {
        package var manifest: BackupManifest
        package var redelivered: [String: Int]
    }

    /// Writes a snapshot into a data folder with no stores or files in it yet, after checking it
    /// (`verify`) and that this build knows every migration of every store in it (a snapshot
    /// from a newer build is refused); the services migrate forward when they start on it.
    /// Outbox messages delivered since the snapshot began are made due again: a consumer's part
    /// may have been taken before the delivery its producer's part records.
    /// Into `sources`: the data folder, and for a store dumped from PostgreSQL the empty database
    /// its service's `<SVC>_DATABASE_URL` names now. Everything is checked before anything is written.
    package static func restore(id: String, into sources: Sources, from store: BackupStore) async throws -> Restored {
        let dataDirectory = sources.dataDirectory
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory)) ?? []
        if let taken = existing.first(where: { $0.hasSuffix(".sqlite") || $0 == "files" }) {
            throw ServiceError.badRequest("\(dataDirectory) is not empty (\(taken)): restore into a new data folder")
        }
        let problems = try await verify(id: id, in: store, tools: sources.tools)
        guard problems.isEmpty else { throw ServiceError.badRequest("snapshot \(id) is damaged: " + problems.joined(separator: "; ")) }
        let entries = try Self.entries(of: try await store.archive(id))
        let manifest = try manifest(in: entries)
        var databases: [String: String] = [:]
        for part in manifest.parts where part.engine != nil {
            guard let service = part.service.flatMap(ServiceName.init(rawValue:)) else {
                throw ServiceError.badRequest("\(part.name): a store of no service this build has")
            }
            let postgres = part.engine == "postgresql"
            let known = postgres ? ServiceCatalog.postgresMigrations(for: service) : ServiceCatalog.sqliteMigrations(for: service)
            let unknown = (part.migrations ?? []).filter { !known.contains($0) }
            guard unknown.isEmpty else {
                throw ServiceError.badRequest(
                    "snapshot \(id) is from a newer build: \(part.name) has migrations this one does not know (\(unknown.joined(separator: ", ")))")
            }
            guard postgres else { continue }
            guard let variable = ServiceCatalog.databaseURLVariable(for: service), let url = sources.databases[service] else {
                throw ServiceError.badRequest(
                    "\(part.name): set \(ServiceCatalog.databaseURLVariable(for: service)?.name ?? "its database URL") to an empty database to restore it into"
                )
            }
            guard try await PostgresDump.checkEmpty(url, logger: logger) else {
                throw ServiceError.badRequest("\(part.name): the database \(variable.name) names has tables already; restore into an empty one")
            }
            databases[part.name] = url
        }
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        for entry in entries.dropFirst() {
            if let url = databases[entry.name] {
                try await PostgresDump.restore(entry.bytes, into: url, tools: sources.tools)
                continue
            }
            let path = dataDirectory + "/" + entry.name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try entry.bytes.write(to: URL(fileURLWithPath: path))
        }
        var redelivered: [String: Int] = [:]
        let now = GlintDate.nowMilliseconds()
        for part in manifest.parts where part.rowCounts?["outbox"] != nil {
            if let url = databases[part.name] {
                let pool = try PostgresPool(url: url, logger: logger, maximumConnections: 1)
                defer { pool.close() }
                redelivered[part.name] = try await PostgresOutboxStore(database: pool).redeliver(deliveredSince: manifest.startedAt, at: now)
            } else if part.engine == "sqlite" {
                let database = try DatabaseQueue(path: dataDirectory + "/" + part.name)
                redelivered[part.name] = try await SQLiteOutboxStore(database: database).redeliver(deliveredSince: manifest.startedAt, at: now)
                try database.close()
            }
        }
        return Restored(manifest: manifest, redelivered: redelivered)
    }

    /// The manifest an archive's entries begin with.
    static func manifest(in entries: [TarArchive.Entry]) throws -> BackupManifest {
        guard let first = entries.first, first.name == "manifest.json" else { throw TarArchive.Failure.malformed("no manifest") }
        return try JSONCoding.decoder.decode(BackupManifest.self, from: first.bytes)
    }

    /// `20261127T034500Z-3fa2c1`: sortable by time, unique within a second.
    static func snapshotID(at milliseconds: Int64) -> String {
        GlintDate.compactStamp(fromMilliseconds: milliseconds) + "-" + String(ObjectID.generate().suffix(6))
    }
}

/// A folder of its own under the system's temporary one, for a part being checked.
enum ScratchFolder {
    static func make() throws -> String {
        let path = NSTemporaryDirectory() + "glint-backup-" + ObjectID.generate()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
