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
            // The generation in the key: what was asked before a change is never found after it.
            let key = "\(changes.count)/\(appID)/\(userID)"
            if let cached = cache.value(for: key) { return cached }
            let answer = try await client.call(InternalEndpoints.Auth.hiddenContent, userID, for: .init(appID: appID, requestID: requestID))
            cache.store(answer, for: key, ttl: ttl)
            return answer
        }
    }
}
