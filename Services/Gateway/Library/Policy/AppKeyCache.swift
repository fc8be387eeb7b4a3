import Contracts
import ServiceClients
import ServiceKit
import Synchronization

/// `SeSACKey` values and mounts and their apps, kept in memory so a request costs no extra hop.
/// Unknown ones are kept briefly too, so a flood of bad keys or paths does not become a flood on
/// auth-svc.
final class AppKeyCache: Sendable {
    /// The longest key looked up; longer ones are unknown without asking.
    static let maxKeyLength = 256

    private let client: AuthClient
    private let ttl: Duration
    private let negativeTTL: Duration
    /// nil values are keys auth-svc does not know.
    private let entries: ExpiringCache<String, AppInfo?>
    private let mounts: ExpiringCache<String, AppInfo?>
    /// Moves when everything is forgotten, before and after the entries go: an answer asked for
    /// before is not kept after (`resolve`), and a copy taken before is not used after (`GatewayPolicy.Local`).
    private let generation = Atomic<Int>(0)

    init(client: AuthClient, ttl: Duration, maxEntries: Int = 10_000) {
        self.client = client
        self.ttl = ttl
        self.negativeTTL = min(ttl, .seconds(5))
        self.entries = ExpiringCache(maxEntries: maxEntries)
        self.mounts = ExpiringCache(maxEntries: maxEntries)
    }

    /// What is known without asking: `.some(nil)` for a known-bad key, nil when auth-svc must be asked.
    func cached(_ key: String, now: ContinuousClock.Instant = .now) -> AppInfo?? {
        entries.value(for: key, now: now)
    }

    /// The same with when it stops being known.
    func cachedUntil(_ key: String, now: ContinuousClock.Instant) -> (app: AppInfo?, expires: ContinuousClock.Instant)? {
        entries.valueAndExpiry(for: key, now: now).map { ($0.value, $0.expires) }
    }

    /// Where the cache's forgetting stands: a copy of an answer is good while this has not moved
    /// since before the answer was read.
    var forgetting: Int { generation.load(ordering: .acquiring) }

    /// Asks auth-svc (and keeps the answer); errors are auth-svc's, as `ServiceError`s. A
    /// rotated-out key is kept no longer than its grace: it stops opening the app on time.
    func resolve(_ key: String) async throws -> AppInfo? {
        guard key.utf8.count <= Self.maxKeyLength else { return nil }
        let asked = generation.load(ordering: .acquiring)
        let resolved = try await client.appByKey(key)
        guard generation.load(ordering: .acquiring) == asked else { return resolved?.app }
        var keep = resolved == nil ? negativeTTL : ttl
        if let validUntil = resolved?.validUntil {
            keep = min(keep, .milliseconds(max(validUntil - GlintDate.nowMilliseconds(), 0)))
        }
        entries.store(resolved?.app, for: key, ttl: keep)
        return resolved?.app
    }

    /// An app changed (a key rotated, an app disabled): every key and mount is asked again.
    @Sendable func forgetAll() {
        generation.add(1, ordering: .releasing)
        entries.removeAll()
        mounts.removeAll()
        generation.add(1, ordering: .releasing)
    }

    /// The same for a mount (a path's first segment).
    func cachedMount(_ mount: Substring, now: ContinuousClock.Instant = .now) -> AppInfo?? {
        mounts.value(for: String(mount), now: now)
    }

    func cachedMountUntil(_ mount: String, now: ContinuousClock.Instant) -> (app: AppInfo?, expires: ContinuousClock.Instant)? {
        mounts.valueAndExpiry(for: mount, now: now).map { ($0.value, $0.expires) }
    }

    func resolveMount(_ mount: String) async throws -> AppInfo? {
        let asked = generation.load(ordering: .acquiring)
        let app = try await client.appByMount(mount)
        guard generation.load(ordering: .acquiring) == asked else { return app }
        mounts.store(app, for: mount, ttl: app == nil ? negativeTTL : ttl)
        return app
    }
}
