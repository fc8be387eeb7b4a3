import Contracts
import ServiceKit

/// auth-svc's record of what a reader hid by blocks and reports (API.md §9).
struct HiddenContentClient: Sendable {
    var hidden: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> HiddenContent

    /// Kept until auth-svc announces a change of users (`changes`: a block, a report), which it
    /// does before answering the request that made it; `ttl` only bounds a lost announcement.
    static func live(_ client: InternalClient, changes: any CommitCounter, ttl: Duration = .seconds(30)) -> HiddenContentClient {
        let cache = ExpiringCache<String, HiddenContent>(maxEntries: 50_000)
        return HiddenContentClient { userID, appID, requestID in
            try await cache.value(for: appID + "/" + userID, since: changes, ttl: ttl) {
                try await client.call(InternalEndpoints.Auth.hiddenContent, userID, for: .init(appID: appID, requestID: requestID))
            }
        }
    }

    /// auth-svc down: every call fails as the live client's would.
    static let failing = HiddenContentClient { _, _, _ in throw ServiceError.unavailable(.auth) }

    /// No call expected: the first one fails the running test.
    static let unimplemented = HiddenContentClient { _, _, _ in throw Unimplemented.call("HiddenContentClient.hidden") }
}
