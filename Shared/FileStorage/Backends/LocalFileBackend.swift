import Contracts
import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceKit
import ServiceLifecycle

/// Uploads in the data folder: `<DATA_DIR>/files/<area>/<name>`, as every deployment has kept
/// them (the app is not part of the path). Read back through Hummingbird's `FileIO`, in chunks.
/// A removed file is moved to `files/_deleted/<milliseconds>/<area>/<name>` and deleted
/// `deleteAfter` later, as a bucket's are: a snapshot takes what was removed while it ran, so a
/// store copied earlier never points at a missing file.
package struct LocalFileBackend: FileBackend {
    package let root: String
    package let deleteAfter: Duration
    private let logger: Logger
    private let fileIO = FileIO()

    /// The folder under `root` removed files wait in, by the time of their removal.
    package static let deletedFolder = "_deleted"

    package init(dataDirectory: String, deleteAfter: Duration = .seconds(604_800), logger: Logger = Logger(label: "glint-files")) {
        root = dataDirectory + "/files"
        (self.deleteAfter, self.logger) = (deleteAfter, logger)
    }

    package var name: String { "local" }
    package var services: [any Service] {
        [DelayedDeletionSweeper(interval: min(deleteAfter, .seconds(3600)), logger: logger) { try await sweep() }]
    }

    package func path(of key: FileKey) -> String {
        root + "/" + key.area + "/" + key.name
    }

    package func write(_ key: FileKey, _ bytes: ByteBuffer, kind: ImageKind) async throws {
        try DataDirectory.ensure(root + "/" + key.area)
        guard FileManager.default.createFile(atPath: path(of: key), contents: Data(bytes.readableBytesView)) else {
            throw ServiceError(.internalError, "could not store file")
        }
    }

    package func response(for key: FileKey, kind: ImageKind, request: Request, context: GlintRequestContext) async throws -> Response {
        let path = path(of: key)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            throw ServiceError.notFound("no such file")
        }
        // Names are never reused, so a name and a size tell a file's version.
        let etag = "\"" + Hex.encode(SHA256.hash(data: Data(key.name.utf8)).prefix(8)) + "-\(size)\""
        var headers = FileAnswer.headers(kind: kind, etag: etag)
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        switch ByteRange(header: request.headers[.range], size: size) {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .part(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            if request.method == .head { return Response(status: .partialContent, headers: headers) }
            return Response(
                status: .partialContent, headers: headers, body: try await fileIO.loadFile(path: path, range: range, context: context))
        case .whole:
            headers[.contentLength] = String(size)
            if request.method == .head || size == 0 { return Response(status: .ok, headers: headers) }
            return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: path, context: context))
        }
    }

    package func remove(_ key: FileKey) async {
        let path = path(of: key)
        guard FileManager.default.fileExists(atPath: path) else { return }
        let folder = root + "/" + Self.deletedFolder + "/" + String(format: "%013lld", GlintDate.nowMilliseconds()) + "/" + key.area
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: path, toPath: folder + "/" + key.name)
        } catch {
            // The file stays: a leftover costs space, a missing file breaks a record.
            logger.warning("file not set aside for deletion", metadata: ["file": "\(key.area)/\(key.name)", "error": "\(error)"])
        }
    }

    /// Deletes the files removed `deleteAfter` ago or earlier; answers how many.
    package func sweep(now: Int64 = GlintDate.nowMilliseconds()) async throws -> Int {
        let due = now - Int64(deleteAfter.components.seconds) * 1000
        let deleted = root + "/" + Self.deletedFolder
        var count = 0
        for stamp in ((try? FileManager.default.contentsOfDirectory(atPath: deleted)) ?? []).sorted() {
            // Folders sort by time: the first one not yet due ends the sweep.
            guard let removedAt = Int64(stamp), removedAt <= due else { break }
            let folder = deleted + "/" + stamp
            for area in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                count += ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + area)) ?? []).count
            }
            try FileManager.default.removeItem(atPath: folder)
        }
        return count
    }

    package func check() async throws {
        try DataDirectory.ensure(root)
    }
}
