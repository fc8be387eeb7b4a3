import AsyncHTTPClient
import Backup
import Contracts
import FileStorage
import Foundation
import NIOCore
import ServiceKit

/// Where snapshots are kept: a folder (`<folder>/<id>.tar.gz`) or an S3-compatible bucket
/// (`backups/<id>.tar.gz`, its manifest beside it as `backups/<id>.json`, written last, so a
/// listing reads manifests, not archives, and never shows a snapshot whose archive is not whole).
package struct BackupStore: Sendable {
    /// The folder's path or the bucket's URL, for what the commands print.
    package var description: String
    var ids: @Sendable () async throws -> [String]
    var manifest: @Sendable (String) async throws -> BackupManifest
    var archive: @Sendable (String) async throws -> Data
    var put: @Sendable (String, Data, BackupManifest) async throws -> Void
    var remove: @Sendable (String) async throws -> Void
    /// The last run's status where the store keeps one (a bucket; a folder's is `DATA_DIR`'s only).
    var status: @Sendable () async throws -> BackupHealth?
    var recordStatus: @Sendable (BackupHealth) async throws -> Void
}

extension BackupStore {
    package static func folder(_ path: String) -> BackupStore {
        let url = { @Sendable (id: String) in URL(fileURLWithPath: path + "/" + id + Backups.archiveSuffix) }
        return BackupStore(
            description: path,
            ids: {
                ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(Backups.archiveSuffix) }
                    .map { String($0.dropLast(Backups.archiveSuffix.count)) }
            },
            manifest: { id in
                // The manifest is the archive's first entry: the file's first 64 KB hold it
                // unless it is unusually large, and a listing reads no more than that.
                let handle = try FileHandle(forReadingFrom: url(id))
                defer { try? handle.close() }
                let start = try handle.read(upToCount: 64 << 10) ?? Data()
                let first = try (try? TarArchive.firstEntry(ofGzipped: start)) ?? TarArchive.firstEntry(ofGzipped: try Data(contentsOf: url(id)))
                return try Backups.manifest(in: [first])
            },
            archive: { id in try Data(contentsOf: url(id)) },
            put: { id, archive, _ in
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                try archive.write(to: url(id), options: .atomic)
            },
            remove: { id in try FileManager.default.removeItem(at: url(id)) },
            status: { nil }, recordStatus: { _ in })
    }

    package static func bucket(_ client: S3Client) -> BackupStore {
        let prefix = "backups/"
        @Sendable func object(_ key: String) async throws -> Data {
            let response = try await client.get(key)
            guard response.status == .ok else { throw ServiceError.notFound("no snapshot object \(key) in the bucket") }
            return Data(buffer: try await response.body.collect(upTo: Int(UInt32.max)))
        }
        return BackupStore(
            description: client.bucketURL.origin + client.bucketURL.bucketPath,
            ids: {
                var ids: [String] = []
                var next: String?
                repeat {
                    let page = try await client.list(prefix: prefix, continuation: next)
                    ids += page.objects.map(\.key).filter { $0.hasSuffix(".json") }.map { String($0.dropFirst(prefix.count).dropLast(5)) }
                    next = page.next
                } while next != nil
                return ids
            },
            manifest: { id in try JSONCoding.decoder.decode(BackupManifest.self, from: try await object(prefix + id + ".json")) },
            archive: { id in try await object(prefix + id + Backups.archiveSuffix) },
            put: { id, archive, manifest in
                try await client.put(prefix + id + Backups.archiveSuffix, ByteBuffer(data: archive), contentType: "application/gzip")
                try await client.put(prefix + id + ".json", JSONCoding.encode(manifest), contentType: "application/json")
            },
            remove: { id in
                // The manifest first: a snapshot half removed is no longer listed.
                try await client.delete(prefix + id + ".json")
                try await client.delete(prefix + id + Backups.archiveSuffix)
            },
            status: { try await BackupBucket.status(in: client) },
            recordStatus: { try await BackupBucket.recordStatus($0, in: client) })
    }
}
