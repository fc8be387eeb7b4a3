import Contracts
import ServiceKit

/// auth-svc's record of what a reader hid by blocks and reports (API.md §9).
struct HiddenContentClient: Sendable {
    var hidden: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> HiddenContent

    /// Cached for `ttl`, so a new block or report shows within that long without a call to
    /// auth-svc on every page.
    static func live(_ client: InternalClient, ttl: Duration = .seconds(3)) -> HiddenContentClient {
        let cache = ExpiringCache<String, HiddenContent>(maxEntries: 50_000)
        return HiddenContentClient { userID, appID, requestID in
            let key = appID + "/" + userID
            if let cached = cache.value(for: key) { return cached }
            let answer = try await client.call(InternalEndpoints.Auth.hiddenContent, userID, for: .init(appID: appID, requestID: requestID))
            cache.store(answer, for: key, ttl: ttl)
            return answer
        }
    }
}
