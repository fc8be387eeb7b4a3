import AsyncHTTPClient
import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceKit
import ServiceLifecycle

/// Uploads in an S3-compatible bucket at `<service>/<app>/<area>/<name>`, so replicas need no
/// shared disk. Reads stream the store's answer through (its `ETag`, `Range` and `304` passed
/// on) or, with `redirect`, send the client to a presigned URL. A removal only marks the object
/// (`_deleted/<time>/<key>`); `DelayedDeletionSweeper` deletes it `deleteAfter` later, so a
/// database restored from an older backup still finds its files.
package struct S3FileBackend: FileBackend {
    package let client: S3Client
    package let redirect: Bool
    package let deleteAfter: Duration
    private let logger: Logger
    /// The HTTP client's owner, when the backend made it (`FileStorageConfiguration`).
    private let http: HTTPClientService?

    /// How long a presigned URL of `redirect` lasts.
    static let presignedSeconds = 300
    static let deletedPrefix = "_deleted/"

    package init(client: S3Client, redirect: Bool, deleteAfter: Duration, logger: Logger, owning http: HTTPClientService? = nil) {
        (self.client, self.redirect, self.deleteAfter, self.logger, self.http) = (client, redirect, deleteAfter, logger, http)
    }

    package var name: String { "s3" }
    package var services: [any Service] {
        [DelayedDeletionSweeper(interval: min(deleteAfter, .seconds(3600)), logger: logger) { try await sweep() }] + (http.map { [$0] } ?? [])
    }

    package func write(_ key: FileKey, _ bytes: ByteBuffer, kind: ImageKind) async throws {
        try await client.put(key.objectKey, bytes, contentType: kind.contentType)
    }

    package func response(for key: FileKey, kind: ImageKind, request: Request, context: GlintRequestContext) async throws -> Response {
        if redirect {
            return Response(
                status: .found,
                headers: [.location: client.presignedURL(key.objectKey, expires: Self.presignedSeconds), .cacheControl: "private, max-age=240"])
        }
        do {
            if request.method == .head {
                guard let head = try await client.head(key.objectKey) else { throw ServiceError.notFound("no such file") }
                var headers = FileAnswer.headers(kind: kind, etag: head.etag)
                headers[.contentLength] = String(head.size)
                return Response(status: head.etag != nil && request.headers[.ifNoneMatch] == head.etag ? .notModified : .ok, headers: headers)
            }
            let answer = try await client.get(key.objectKey, range: request.headers[.range], ifNoneMatch: request.headers[.ifNoneMatch])
            if answer.status == .notFound { throw ServiceError.notFound("no such file") }
            var headers = FileAnswer.headers(kind: kind, etag: answer.headers.first(name: "etag"))
            for (name, field) in [("content-length", HTTPField.Name.contentLength), ("content-range", .contentRange)] {
                if let value = answer.headers.first(name: name) { headers[field] = value }
            }
            let status = HTTPResponse.Status(code: Int(answer.status.code))
            guard status == .ok || status == .partialContent else { return Response(status: status, headers: headers) }
            return Response(status: status, headers: headers, body: ResponseBody(asyncSequence: answer.body))
        } catch let error as ServiceError where error.code == .unavailable {
            // A read the store cannot serve is the store's failure, not ours: 502.
            throw ServiceError(.upstreamFailed, error.message)
        }
    }

    package func remove(_ key: FileKey) async {
        let marker = Self.deletedPrefix + String(format: "%013lld", GlintDate.nowMilliseconds()) + "/" + key.objectKey
        do {
            try await client.put(marker, ByteBuffer(), contentType: "application/octet-stream")
        } catch {
            // The file stays: a leftover costs space, a missing file breaks a record.
            logger.warning("file not marked for deletion", metadata: ["key": "\(key.objectKey)", "error": "\(error)"])
        }
    }

    package func check() async throws {
        _ = try await client.list(prefix: Self.deletedPrefix, maxKeys: 1)
    }

    /// Deletes the files marked `deleteAfter` ago or earlier (and their marks); answers how many.
    package func sweep(now: Int64 = GlintDate.nowMilliseconds()) async throws -> Int {
        let due = now - Int64(deleteAfter.components.seconds) * 1000
        var deleted = 0
        var continuation: String?
        repeat {
            let page = try await client.list(prefix: Self.deletedPrefix, continuation: continuation)
            for marker in page.objects.map(\.key) {
                let rest = marker.dropFirst(Self.deletedPrefix.count)
                guard let slash = rest.firstIndex(of: "/"), let markedAt = Int64(rest[..<slash]) else { continue }
                // Marks sort by time: the first one not yet due ends the sweep.
                guard markedAt <= due else { return deleted }
                try await client.delete(String(rest[rest.index(after: slash)...]))
                try await client.delete(marker)
                deleted += 1
            }
            continuation = page.next
        } while continuation != nil
        return deleted
    }
}
