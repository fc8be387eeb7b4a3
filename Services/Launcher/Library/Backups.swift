import Backup
import Contracts
import Crypto
import Foundation
import GRDB
import Outbox
import ServiceKit

/// `glint backup create | list | verify` on one machine's data folder: a snapshot is one
/// archive (`<target>/<id>.tar`) holding `manifest.json`, each service's SQLite file copied
/// while the suite keeps serving (`SQLiteSnapshot`), and the uploaded files under
/// `DATA_DIR/files`. The default target is `DATA_DIR/backups`.
package enum Backups {
    package static func target(dataDirectory: String, _ given: String?) -> String {
        given ?? dataDirectory + "/backups"
    }

    /// Takes a snapshot; answers its manifest (its id names the archive).
    package static func create(dataDirectory: String, to given: String? = nil) throws -> BackupManifest {
        let target = target(dataDirectory: dataDirectory, given)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let startedAt = GlintDate.nowMilliseconds()
        let id = snapshotID(at: startedAt)
        let scratch = target + "/." + id
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var entries: [TarArchive.Entry] = []
        var parts: [BackupManifest.Part] = []
        for service in ServiceCatalog.backupOrder {
            let path = dataDirectory + "/" + service.rawValue + ".sqlite"
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let (bytes, part) = try SQLiteSnapshot.take(path, service: service.rawValue, scratch: scratch)
            entries.append(TarArchive.Entry(name: part.name, bytes: bytes))
            parts.append(part)
        }
        let files = dataDirectory + "/files"
        for area in ((try? FileManager.default.contentsOfDirectory(atPath: files)) ?? []).sorted() {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: files + "/" + area)) ?? []).sorted() {
                let takenAt = GlintDate.nowMilliseconds()
                let bytes = try Data(contentsOf: URL(fileURLWithPath: files + "/" + area + "/" + name))
                let entryName = "files/" + area + "/" + name
                entries.append(TarArchive.Entry(name: entryName, bytes: bytes))
                parts.append(BackupManifest.Part(name: entryName, sha256: digest(bytes), bytes: bytes.count, takenAt: takenAt))
            }
        }
        let manifest = BackupManifest(id: id, startedAt: startedAt, finishedAt: GlintDate.nowMilliseconds(), parts: parts)
        let manifestEntry = TarArchive.Entry(name: "manifest.json", bytes: Data(buffer: JSONCoding.encode(manifest)))
        try TarArchive.write([manifestEntry] + entries, to: URL(fileURLWithPath: target + "/" + id + ".tar"))
        return manifest
    }

    /// `create`, then `prune` to `keep`, with how it ended recorded (`BackupStatusFile`): a
    /// scheduled round and `glint backup create` alike.
    package static func run(dataDirectory: String, to given: String?, keep: Int?) throws -> (manifest: BackupManifest, removed: [String]) {
        do {
            if let keep, keep < 1 { throw ServiceError.badRequest("keep at least one snapshot (asked: \(keep))") }
            let manifest = try create(dataDirectory: dataDirectory, to: given)
            let removed = try keep.map { try prune(keep: $0, dataDirectory: dataDirectory, in: given) } ?? []
            try BackupStatusFile.record(in: dataDirectory, snapshot: manifest.id, error: nil, at: GlintDate.nowMilliseconds())
            return (manifest, removed)
        } catch {
            try? BackupStatusFile.record(in: dataDirectory, snapshot: nil, error: "\(error)", at: GlintDate.nowMilliseconds())
            throw error
        }
    }

    /// The snapshots in the target, oldest first (ids taken within one second sort by their
    /// start, not by their random ends).
    package static func list(dataDirectory: String, from given: String? = nil) throws -> [BackupManifest] {
        let target = target(dataDirectory: dataDirectory, given)
        let archives = ((try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []).filter { $0.hasSuffix(".tar") }
        return archives.compactMap { try? manifest(of: URL(fileURLWithPath: target + "/" + $0)) }
            .sorted { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
    }

    /// Keeps the newest `keep` snapshots of the target and removes the others (`BACKUP_KEEP`);
    /// answers the ids removed, oldest first. An archive whose manifest cannot be read is not
    /// counted and not removed: what cannot be told apart is left to an operator.
    package static func prune(keep: Int, dataDirectory: String, in given: String? = nil) throws -> [String] {
        guard keep >= 1 else { throw ServiceError.badRequest("keep at least one snapshot (asked: \(keep))") }
        let target = target(dataDirectory: dataDirectory, given)
        let removed = try list(dataDirectory: dataDirectory, from: given).dropLast(keep).map(\.id)
        for id in removed { try FileManager.default.removeItem(atPath: target + "/" + id + ".tar") }
        return removed
    }

    /// What is wrong with a snapshot: a part missing, changed or extra; a store failing SQLite's
    /// integrity check. Empty when it can be restored.
    package static func verify(id: String, dataDirectory: String, from given: String? = nil) throws -> [String] {
        guard id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { throw ServiceError.badRequest("not a snapshot id: \(id)") }
        let url = URL(fileURLWithPath: target(dataDirectory: dataDirectory, given) + "/" + id + ".tar")
        let entries: [TarArchive.Entry]
        do {
            entries = try TarArchive.read(url)
        } catch {
            return ["\(id).tar: \(error)"]
        }
        guard let first = entries.first, first.name == "manifest.json",
            let manifest = try? JSONCoding.decoder.decode(BackupManifest.self, from: first.bytes)
        else { return ["\(id).tar: no manifest"] }
        var problems: [String] = []
        let contents = Dictionary(entries.dropFirst().map { ($0.name, $0.bytes) }) { first, _ in first }
        for part in manifest.parts {
            guard let bytes = contents[part.name] else {
                problems.append("\(part.name): missing")
                continue
            }
            if bytes.count != part.bytes || digest(bytes) != part.sha256 { problems.append("\(part.name): its checksum does not match") }
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
    package static func restore(id: String, into dataDirectory: String, from given: String? = nil) async throws -> Restored {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory)) ?? []
        if let taken = existing.first(where: { $0.hasSuffix(".sqlite") || $0 == "files" }) {
            throw ServiceError.badRequest("\(dataDirectory) is not empty (\(taken)): restore into a new data folder")
        }
        let problems = try verify(id: id, dataDirectory: dataDirectory, from: given)
        guard problems.isEmpty else { throw ServiceError.badRequest("snapshot \(id) is damaged: " + problems.joined(separator: "; ")) }
        let entries = try TarArchive.read(URL(fileURLWithPath: target(dataDirectory: dataDirectory, given) + "/" + id + ".tar"))
        let manifest = try JSONCoding.decoder.decode(BackupManifest.self, from: entries[0].bytes)
        for part in manifest.parts where part.engine == "sqlite" {
            guard let service = part.service.flatMap(ServiceName.init(rawValue:)) else {
                throw ServiceError.badRequest("\(part.name): a store of no service this build has")
            }
            let unknown = (part.migrations ?? []).filter { !ServiceCatalog.sqliteMigrations(for: service).contains($0) }
            guard unknown.isEmpty else {
                throw ServiceError.badRequest(
                    "snapshot \(id) is from a newer build: \(part.name) has migrations this one does not know (\(unknown.joined(separator: ", ")))")
            }
        }
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        for entry in entries.dropFirst() {
            let path = dataDirectory + "/" + entry.name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try entry.bytes.write(to: URL(fileURLWithPath: path))
        }
        var redelivered: [String: Int] = [:]
        let now = GlintDate.nowMilliseconds()
        for part in manifest.parts where part.engine == "sqlite" && part.rowCounts?["outbox"] != nil {
            let database = try DatabaseQueue(path: dataDirectory + "/" + part.name)
            redelivered[part.name] = try await SQLiteOutboxStore(database: database).redeliver(deliveredSince: manifest.startedAt, at: now)
            try database.close()
        }
        return Restored(manifest: manifest, redelivered: redelivered)
    }

    static func manifest(of url: URL) throws -> BackupManifest {
        guard let first = try TarArchive.read(url).first, first.name == "manifest.json" else { throw TarArchive.Failure.malformed("no manifest") }
        return try JSONCoding.decoder.decode(BackupManifest.self, from: first.bytes)
    }

    /// `20261127T034500Z-3fa2c1`: sortable by time, unique within a second.
    static func snapshotID(at milliseconds: Int64) -> String {
        GlintDate.compactStamp(fromMilliseconds: milliseconds) + "-" + String(ObjectID.generate().suffix(6))
    }

    static func digest(_ bytes: Data) -> String {
        Hex.encode(SHA256.hash(data: bytes))
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
