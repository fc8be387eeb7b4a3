import Contracts
import Crypto
import Foundation
import Hummingbird
import NIOCore
import ServiceKit

/// Uploaded images of one area (`profiles`, `filters`, `posts`, `chats`): stored under
/// `<DATA_DIR>/files/<area>/` with names we make, answered as `/data/<area>/<name>` and served
/// back (through the gateway) as `GET /v1/data/<area>/<name>`.
package struct FileStore: Sendable {
    package let area: String
    package let directory: String

    package init(dataDirectory: String, area: String) throws {
        self.area = area
        self.directory = dataDirectory + "/files/" + area
        try DataDirectory.ensure(directory)
    }

    /// Checks every part is an image (by its bytes) before storing any; answers their paths.
    package func store(_ parts: [MultipartForm.Part]) throws -> [String] {
        let kinds = try parts.map { part -> ImageKind in
            guard let kind = ImageKind.detect(part.body.readableBytesView) else {
                throw ServiceError.badRequest("only JPEG, PNG, GIF, WebP or HEIC images are accepted")
            }
            return kind
        }
        return try zip(parts, kinds).map { part, kind in
            let name = ObjectID.generate() + "." + kind.fileExtension
            let path = directory + "/" + name
            guard FileManager.default.createFile(atPath: path, contents: Data(part.body.readableBytesView)) else {
                throw ServiceError(.internalError, "could not store file")
            }
            return "/data/\(area)/\(name)"
        }
    }

    /// Stores the parts, then runs `write` with their paths; when `write` fails the files are
    /// removed again, so no stored file is left that nothing points at.
    package func storing<Result>(_ parts: [MultipartForm.Part], _ write: ([String]) async throws -> Result) async throws -> Result {
        let paths = try store(parts)
        do {
            return try await write(paths)
        } catch {
            paths.forEach(remove(publicPath:))
            throw error
        }
    }

    /// An edit that may replace a record's files: the new `parts` stored, `write` run with their
    /// paths (nil when there are none: the record keeps its files), and the `replaced` files
    /// removed only after `write` succeeded, so the record never points at a removed file.
    package func replacing(_ replaced: [String], with parts: [MultipartForm.Part], _ write: ([String]?) async throws -> Void) async throws {
        try await storing(parts) { paths in try await write(parts.isEmpty ? nil : paths) }
        if !parts.isEmpty { replaced.forEach(remove(publicPath:)) }
    }

    /// Serves the area's files at `GET`/`HEAD <prefix>/<area>/{name}`: `/v1/data` for keyed apps
    /// (names are unguessable, so only the app key the gateway checked is asked for, as API.md §0
    /// says of file GETs), `/files` under a mount (API.md §9: loaded with no key or token).
    package func registerServing(on group: ServiceApplication.Group, prefix: String = "/v1/data") {
        for method in [HTTPRequest.Method.get, .head] {
            group.on(RouterPath("\(prefix)/\(area)/{name}"), method: method) { request, context in
                try response(for: request, name: try context.parameters.require("name"))
            }
        }
    }

    /// Removes a stored file given its public path (a replaced profile image); unknown paths are ignored.
    package func remove(publicPath: String) {
        guard let name = fileName(fromPublicPath: publicPath) else { return }
        try? FileManager.default.removeItem(atPath: directory + "/" + name)
    }

    /// `GET`/`HEAD /v1/data/<area>/<name>`: the bytes with type, validator and a long cache
    /// lifetime (names are never reused, so files never change).
    package func response(for request: Request, name: String) throws -> Response {
        guard isSafeName(name), let kind = ImageKind.forFileName(name),
            let data = FileManager.default.contents(atPath: directory + "/" + name)
        else { throw ServiceError.notFound("no such file") }
        let etag = "\"" + Hex.encode(SHA256.hash(data: Data(name.utf8)).prefix(8)) + "-\(data.count)\""
        var headers: HTTPFields = [
            .contentType: kind.contentType,
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
            .contentLength: String(data.count),
        ]
        if request.headers[.ifNoneMatch] == etag {
            headers[.contentLength] = nil
            return Response(status: .notModified, headers: headers)
        }
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    private func fileName(fromPublicPath path: String) -> String? {
        let prefix = "/data/\(area)/"
        guard path.hasPrefix(prefix) else { return nil }
        let name = String(path.dropFirst(prefix.count))
        return isSafeName(name) ? name : nil
    }

    private func isSafeName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && !name.hasPrefix(".")
            && name.utf8.allSatisfy { (48...57).contains($0) || (97...122).contains($0) || $0 == 46 }
    }
}
