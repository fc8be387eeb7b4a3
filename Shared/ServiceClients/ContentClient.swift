import Contracts
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
            }
        )
    }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: ContentClient {
        ContentClient(
            summary: { _, _, _, _ in throw Unimplemented.call("ContentClient.summary") },
            hide: { _, _, _, _, _ in throw Unimplemented.call("ContentClient.hide") },
            restore: { _, _, _, _, _ in throw Unimplemented.call("ContentClient.restore") })
    }
}
