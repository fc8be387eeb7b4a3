import Contracts
import ServiceKit
import HTTPTypes
import Hummingbird
import Synchronization

/// Resolves `SeSACKey` values to apps. Live: auth-svc's internal endpoint; cached in memory so a
/// request costs no extra hop. Unknown keys are cached briefly too, so a flood of bad keys does
/// not become a flood on auth-svc; the cache is bounded.
final class AppDirectory: Sendable {
    /// The lookup itself (nil = no such key).
    struct Client: Sendable {
        var resolve: @Sendable (String) async throws -> AppInfo?

        static func live(_ client: InternalClient) -> Client {
            Client { key in
                do {
                    return try await client.call(InternalEndpoints.Auth.resolveApp, body: AppKeyLookup(key: key))
                } catch let error as ServiceError where error.code == .notFound {
                    return nil
                }
            }
        }
    }

    private struct Entry {
        var app: AppInfo?
        var expires: ContinuousClock.Instant
    }

    private let client: Client
    private let ttl: Duration
    private let negativeTTL: Duration
    private let maxEntries: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(client: Client, ttl: Duration, maxEntries: Int = 10_000) {
        self.client = client
        self.ttl = ttl
        self.negativeTTL = min(ttl, .seconds(5))
        self.maxEntries = maxEntries
    }

    /// What the cache knows without asking: `.some(nil)` for a known-bad key, nil when it must ask.
    func cachedApp(forKey key: String) -> AppInfo?? {
        guard let entry = entries.withLock({ $0[key] }), entry.expires > ContinuousClock.now else { return nil }
        return .some(entry.app)
    }

    func app(forKey key: String) async throws -> AppInfo? {
        guard key.utf8.count <= 256 else { return nil }
        let now = ContinuousClock.now
        if let entry = entries.withLock({ $0[key] }), entry.expires > now {
            return entry.app
        }
        let app = try await client.resolve(key)
        let entry = Entry(app: app, expires: now + (app == nil ? negativeTTL : ttl))
        entries.withLock { entries in
            if entries.count >= maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
        return app
    }
}
