import Contracts
import ServiceKit

/// What chat-svc asks auth-svc: an app's compatibility flags by app id (nil for no such app).
/// Sockets without a key are judged by their room's app on every connect, so the live value
/// keeps answers for a while.
struct AppsClient: Sendable {
    var flags: @Sendable (_ appID: String) async throws -> AppFlags?

    static func live(_ client: InternalClient, ttl: Duration = .seconds(30)) -> AppsClient {
        let cache = ExpiringCache<String, AppFlags?>(maxEntries: 10_000)
        return AppsClient { appID in
            if let cached = cache.value(for: appID) { return cached }
            let flags: AppFlags?
            do {
                flags = try await client.call(InternalEndpoints.Auth.app, appID).flags
            } catch let error as ServiceError where error.code == .notFound {
                flags = nil
            }
            cache.store(flags, for: appID, ttl: ttl)
            return flags
        }
    }

    static let failing = AppsClient { _ in throw ServiceError.unavailable(.auth) }

    /// No call expected: the first one fails the running test.
    static let unimplemented = AppsClient { _ in throw Unimplemented.call("AppsClient.flags") }
}
