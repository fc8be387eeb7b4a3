import Contracts
import Crypto
import Foundation
import Hummingbird
import NIOCore
import ServiceKit
import ServiceLifecycle

/// Uploads in the data folder: `<DATA_DIR>/files/<area>/<name>`, as every deployment has kept
/// them (the app is not part of the path). Read back through Hummingbird's `FileIO`, in chunks.
package struct LocalFileBackend: FileBackend {
    package let root: String
    private let fileIO = FileIO()

    package init(dataDirectory: String) {
        root = dataDirectory + "/files"
    }

    package var name: String { "local" }
    package var services: [any Service] { [] }

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
        try? FileManager.default.removeItem(atPath: path(of: key))
    }

    package func check() async throws {
        try DataDirectory.ensure(root)
    }
}
