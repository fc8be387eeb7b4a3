import Dispatch
import Synchronization

/// Answers of other services kept for a while (users, blocked lists, apps), and tokens verified,
/// so a busy path does not ask again per request. Bounded by two generations of half the bound
/// each: entries go into the current one; when it is full it becomes the previous one and the
/// previous one is dropped, except what was used since (a hit in the previous generation moves
/// the entry to the current one). Before, a full cache started over: all its entries freed
/// inside the lock, every loop waiting on it, then every hot entry asked for again — a refresh's
/// p99 doubled each time auth-svc's verified tokens passed 50,000 (Benchmarks/README).
///
/// Public and inlinable throughout: a generic class of another module otherwise runs
/// unspecialised in its users (its dictionary hashed and compared through witness tables, type
/// metadata looked up at run time on every call), a measured share of each request. Swift 6.3
/// inlines and specialises no member of a `package` type in another module, `@inlinable` or not
/// (the services' objects still called the generic entry points); of a `public` type it does.
public final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline struct Entry: Sendable {
        @usableFromInline var value: Value
        @usableFromInline var expires: ContinuousClock.Instant

        @inlinable init(value: Value, expires: ContinuousClock.Instant) {
            (self.value, self.expires) = (value, expires)
        }
    }

    @usableFromInline struct Generations: Sendable {
        @usableFromInline var current: [Key: Entry] = [:]
        @usableFromInline var previous: [Key: Entry] = [:]
        @usableFromInline let size: Int

        @inlinable init(size: Int) { self.size = size }

        /// The live entry of `key`, moved to the current generation if it was in the previous.
        @inlinable mutating func entry(_ key: Key, now: ContinuousClock.Instant, dropped: inout [Key: Entry]?) -> Entry? {
            if let entry = current[key] { return entry.expires > now ? entry : nil }
            guard let entry = previous[key], entry.expires > now else { return nil }
            insert(entry, for: key, dropped: &dropped)
            return entry
        }

        @inlinable mutating func insert(_ entry: Entry, for key: Key, dropped: inout [Key: Entry]?) {
            if current.count >= size, current[key] == nil {
                dropped = previous
                previous = current
                current = Dictionary(minimumCapacity: size)
            }
            current[key] = entry
        }
    }

    @usableFromInline let entries: Mutex<Generations>

    @inlinable package init(maxEntries: Int) {
        entries = Mutex(Generations(size: max(1, maxEntries / 2)))
    }

    /// The value, unless absent or expired.
    @inlinable package func value(for key: Key, now: ContinuousClock.Instant = .now) -> Value? {
        valueAndExpiry(for: key, now: now)?.value
    }

    /// The value and when it expires, unless absent or expired: for a copy kept elsewhere no longer than this one.
    @inlinable package func valueAndExpiry(for key: Key, now: ContinuousClock.Instant = .now) -> (value: Value, expires: ContinuousClock.Instant)? {
        var dropped: [Key: Entry]?
        let entry = entries.withLock { $0.entry(key, now: now, dropped: &dropped) }
        Self.free(dropped)
        return entry.map { ($0.value, $0.expires) }
    }

    /// The values of the keys that have one, in one lock.
    @inlinable package func values(for keys: some Sequence<Key>, now: ContinuousClock.Instant = .now) -> [Key: Value] {
        var dropped: [Key: Entry]?
        let found = entries.withLock { entries in
            var found: [Key: Value] = [:]
            for key in keys {
                if let entry = entries.entry(key, now: now, dropped: &dropped) { found[key] = entry.value }
            }
            return found
        }
        Self.free(dropped)
        return found
    }

    @inlinable package func removeAll() {
        let (current, previous) = entries.withLock { entries in
            defer { (entries.current, entries.previous) = ([:], [:]) }
            return (entries.current, entries.previous)
        }
        Self.free(current)
        Self.free(previous)
    }

    @inlinable package func store(_ value: Value, for key: Key, ttl: Duration) {
        store([(key, value)], ttl: ttl)
    }

    @inlinable package func store(_ pairs: some Collection<(Key, Value)>, ttl: Duration) {
        let expires = ContinuousClock.now + ttl
        var dropped: [Key: Entry]?
        entries.withLock { entries in
            for (key, value) in pairs { entries.insert(Entry(value: value, expires: expires), for: key, dropped: &dropped) }
        }
        Self.free(dropped)
    }

    /// A dropped generation is freed off the caller's thread (an event loop): tens of thousands of
    /// entries take milliseconds to free.
    @inlinable static func free(_ dropped: [Key: Entry]?) {
        guard let dropped, !dropped.isEmpty else { return }
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(dropped) {} }
    }
}

extension ExpiringCache where Key == String {
    /// The values of `ids` within `scope` (an app): cached ones, the rest asked for in one call
    /// (`fetch` answers those that exist) and kept for `ttl`.
    @inlinable package func values(
        _ ids: [String], scope: String, ttl: Duration, id: (Value) -> String, fetch: ([String]) async throws -> [Value]
    ) async throws -> [String: Value] {
        let prefix = scope + "/"
        var found: [String: Value] = [:]
        for (key, value) in values(for: ids.map { prefix + $0 }) { found[String(key.dropFirst(prefix.count))] = value }
        let missing = Array(Set(ids).subtracting(found.keys))
        if !missing.isEmpty {
            let fetched = try await fetch(missing)
            store(fetched.map { (prefix + id($0), $0) }, ttl: ttl)
            for value in fetched { found[id(value)] = value }
        }
        return found
    }
}

extension ExpiringCache where Key == String {
    /// The value of `key` kept since `changes` last moved (the generation is part of the key, so
    /// nothing asked for before a change is found after it), or `fetch`ed and kept for `ttl`.
    @inlinable package func value(
        for key: String, since changes: any CommitCounter, ttl: Duration, fetch: () async throws -> Value
    ) async throws -> Value {
        let key = Self.generation(changes) + key
        if let kept = value(for: key) { return kept }
        let fetched = try await fetch()
        store(fetched, for: key, ttl: ttl)
        return fetched
    }

    /// `values(_:scope:ttl:id:fetch:)`, keeping only what was fetched since `changes` last moved.
    @inlinable package func values(
        _ ids: [String], scope: String, since changes: any CommitCounter, ttl: Duration, id: (Value) -> String,
        fetch: ([String]) async throws -> [Value]
    ) async throws -> [String: Value] {
        try await values(ids, scope: Self.generation(changes) + scope, ttl: ttl, id: id, fetch: fetch)
    }

    @usableFromInline static func generation(_ changes: any CommitCounter) -> String { "\(changes.count)/" }
}
