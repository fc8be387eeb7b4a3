import Synchronization

/// Token buckets by caller (an app, a client address). Memory is bounded: past `maxKeys` buckets,
/// the ones that have refilled completely (idle callers) are dropped, which changes no decision.
final class RateLimiter: Sendable {
    /// Whose bucket: the id as it came, no key string made per request.
    enum Key: Hashable {
        case app(String)
        case ip(String)
    }

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let buckets = Mutex<[Key: Bucket]>([:])
    private let maxKeys: Int

    init(maxKeys: Int = 100_000) {
        self.maxKeys = maxKeys
    }

    /// Takes one token. Returns nil when allowed, or how many seconds until a token is available.
    func take(_ key: Key, limit: RateLimit, now: ContinuousClock.Instant = .now) -> Double? {
        buckets.withLock { buckets in
            // Updated in place: one hash lookup per request.
            let decision = Self.take(from: &buckets[key, default: Bucket(tokens: limit.burst, updated: now)], limit: limit, now: now)
            if buckets.count > maxKeys {
                Self.dropIdle(&buckets, limit: limit, now: now)
            }
            return decision
        }
    }

    private static func take(from bucket: inout Bucket, limit: RateLimit, now: ContinuousClock.Instant) -> Double? {
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        bucket.tokens = min(limit.burst, bucket.tokens + seconds * limit.perSecond)
        bucket.updated = now
        guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / limit.perSecond }
        bucket.tokens -= 1
        return nil
    }

    var count: Int { buckets.withLock { $0.count } }

    private static func dropIdle(_ buckets: inout [Key: Bucket], limit: RateLimit, now: ContinuousClock.Instant) {
        let refillTime = Duration.seconds(limit.burst / limit.perSecond)
        buckets = buckets.filter { now - $0.value.updated < refillTime }
    }
}
