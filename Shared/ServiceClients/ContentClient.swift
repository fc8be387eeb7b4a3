import Contracts
import NIOCore
import ServiceKit

/// The content endpoints as admin-svc calls them: each kind in the service that keeps it
/// (`ContentKind.service`: market-svc, or chat-svc for messages). Tests start from
/// `unimplemented` and set the closures they expect to be called.
package struct ContentClient: Sendable {
    package var summary: @Sendable (_ kind: ContentKind, _ id: String, _ appID: String, _ requestID: String) async throws -> ContentSummary
    package var hide:
        @Sendable (_ kind: ContentKind, _ id: String, _ appID: String, _ request: ModerationRequest, _ requestID: String) async throws ->
            ContentSummary
    package var restore:
        @Sendable (_ kind: ContentKind, _ id: String, _ appID: String, _ request: ModerationRequest, _ requestID: String) async throws ->
            ContentSummary
    package var find: @Sendable (_ kind: ContentKind, _ query: ContentFind, _ appID: String, _ requestID: String) async throws -> [ContentSummary]
    package var around: @Sendable (_ id: String, _ appID: String, _ requestID: String) async throws -> [ContentSummary]
    /// A stored upload as its service serves it; `etag` is the validator the caller holds.
    package var file: @Sendable (_ path: StoredFilePath, _ etag: String?, _ appID: String, _ requestID: String) async throws -> StoredFile

    /// A stored upload's answer: `200` with its bytes, `304`, or the service's `404`.
    package struct StoredFile: Sendable {
        package var status: Int
        package var contentType: String?
        package var etag: String?
        package var body: ByteBuffer

        package init(status: Int, contentType: String? = nil, etag: String? = nil, body: ByteBuffer = ByteBuffer()) {
            (self.status, self.contentType, self.etag, self.body) = (status, contentType, etag, body)
        }
    }

    package static func live(_ client: InternalClient) -> ContentClient {
        ContentClient(
            summary: { kind, id, appID, requestID in
                try await client.call(
                    InternalEndpoints.Content.summary(kind), ContentRef(kind: kind, id: id), body: NoBody(),
                    for: .init(appID: appID, requestID: requestID))
            },
            hide: { kind, id, appID, request, requestID in
                try await client.call(
                    InternalEndpoints.Content.hide(kind), ContentRef(kind: kind, id: id), body: request,
                    for: .init(appID: appID, requestID: requestID))
            },
            restore: { kind, id, appID, request, requestID in
                try await client.call(
                    InternalEndpoints.Content.restore(kind), ContentRef(kind: kind, id: id), body: request,
                    for: .init(appID: appID, requestID: requestID))
            },
            find: { kind, query, appID, requestID in
                try await client.call(
                    InternalEndpoints.Content.find(kind), kind.rawValue, body: query, for: .init(appID: appID, requestID: requestID))
            },
            around: { id, appID, requestID in
                try await client.call(
                    InternalEndpoints.Content.around, ContentRef(kind: .message, id: id), body: NoBody(),
                    for: .init(appID: appID, requestID: requestID))
            },
            file: { path, etag, appID, requestID in
                let answer = try await client.fetch(
                    path.service, path.servedPath, headers: etag.map { [("if-none-match", $0)] } ?? [],
                    for: .init(appID: appID, requestID: requestID))
                return StoredFile(
                    status: answer.status, contentType: answer.headers.first(name: "content-type"), etag: answer.headers.first(name: "etag"),
                    body: answer.body)
            }
        )
    }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: ContentClient {
        ContentClient(
            summary: { _, _, _, _ in throw Unimplemented.call("ContentClient.summary") },
            hide: { _, _, _, _, _ in throw Unimplemented.call("ContentClient.hide") },
            restore: { _, _, _, _, _ in throw Unimplemented.call("ContentClient.restore") },
            find: { _, _, _, _ in throw Unimplemented.call("ContentClient.find") },
            around: { _, _, _ in throw Unimplemented.call("ContentClient.around") },
            file: { _, _, _, _ in throw Unimplemented.call("ContentClient.file") })
    }
}
