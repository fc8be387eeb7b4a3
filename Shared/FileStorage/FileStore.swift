import Contracts
import Foundation
import Hummingbird
import NIOCore
import ServiceKit

/// Uploaded images of one area of a service (`profiles`, `filters`, `posts`, `chats`, …): kept by
/// the service's `FileBackend` (its data folder, or a bucket) under names we make, answered as
/// `/data/<area>/<name>` and served back (through the gateway) as `GET /v1/data/<area>/<name>`.
package struct FileStore: Sendable {
    package let area: String
    package let service: ServiceName
    package let backend: any FileBackend

    package init(backend: any FileBackend, service: ServiceName, area: String) {
        (self.backend, self.service, self.area) = (backend, service, area)
    }

    /// Checks every part is an image (by its bytes) before storing any; answers their paths. When
    /// one cannot be stored, those already stored are removed again and nothing is answered.
    package func store(_ parts: [MultipartForm.Part], appID: String) async throws -> [String] {
        let kinds = try parts.map { part -> ImageKind in
            guard let kind = ImageKind.detect(part.body.readableBytesView) else {
                throw ServiceError.badRequest("only JPEG, PNG, GIF, WebP or HEIC images are accepted")
            }
            return kind
        }
        var stored: [FileKey] = []
        do {
            for (part, kind) in zip(parts, kinds) {
                let key = FileKey(service: service, appID: appID, area: area, name: ObjectID.generate() + "." + kind.fileExtension)
                try await backend.write(key, part.body, kind: kind)
                stored.append(key)
            }
        } catch {
            for key in stored { await backend.remove(key) }
            throw error
        }
        return stored.map { "/data/\(area)/\($0.name)" }
    }

    /// Stores the parts, then runs `write` with their paths; when `write` fails the files are
    /// removed again, so no stored file is left that nothing points at.
    package func storing<Result>(
        _ parts: [MultipartForm.Part], appID: String, _ write: ([String]) async throws -> Result
    ) async throws -> Result {
        let paths = try await store(parts, appID: appID)
        do {
            return try await write(paths)
        } catch {
            for path in paths { await remove(publicPath: path, appID: appID) }
            throw error
        }
    }

    /// An edit that may replace a record's files: the new `parts` stored, `write` run with their
    /// paths (nil when there are none: the record keeps its files), and the `replaced` files
    /// removed only after `write` succeeded, so the record never points at a removed file.
    package func replacing(
        _ replaced: [String], with parts: [MultipartForm.Part], appID: String, _ write: ([String]?) async throws -> Void
    ) async throws {
        try await storing(parts, appID: appID) { paths in try await write(parts.isEmpty ? nil : paths) }
        if !parts.isEmpty { for path in replaced { await remove(publicPath: path, appID: appID) } }
    }

    /// Serves the area's files at `GET`/`HEAD <prefix>/<area>/{name}`: `/v1/data` for keyed apps
    /// (names are unguessable, so only the app key the gateway checked is asked for, as API.md §0
    /// says of file GETs), `/files` under a mount (API.md §9: loaded with no key or token).
    package func registerServing(on group: ServiceApplication.Group, prefix: String = "/v1/data") {
        for method in [HTTPRequest.Method.get, .head] {
            group.on(RouterPath("\(prefix)/\(area)/{name}"), method: method) { request, context in
                try await response(for: request, name: try context.parameters.require("name"), context: context)
            }
        }
    }

    /// Removes a stored file of the app given its public path (a replaced profile image); unknown
    /// paths are ignored.
    package func remove(publicPath: String, appID: String) async {
        guard let name = fileName(fromPublicPath: publicPath) else { return }
        await backend.remove(FileKey(service: service, appID: appID, area: area, name: name))
    }

    /// `GET`/`HEAD /v1/data/<area>/<name>` of the calling app.
    package func response(for request: Request, name: String, context: GlintRequestContext) async throws -> Response {
        guard Self.isSafeName(name), let kind = ImageKind.forFileName(name) else { throw ServiceError.notFound("no such file") }
        let key = FileKey(service: service, appID: try context.requireAppID(), area: area, name: name)
        return try await backend.response(for: key, kind: kind, request: request, context: context)
    }

    private func fileName(fromPublicPath path: String) -> String? {
        let prefix = "/data/\(area)/"
        guard path.hasPrefix(prefix) else { return nil }
        let name = String(path.dropFirst(prefix.count))
        return Self.isSafeName(name) ? name : nil
    }

    /// Names we made: lowercase hex, digits and one extension.
    package static func isSafeName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && !name.hasPrefix(".")
            && name.utf8.allSatisfy { (48...57).contains($0) || (97...122).contains($0) || $0 == 46 }
    }
}
