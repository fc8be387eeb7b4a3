import Synchronization

/// Answers of other services kept for a while (users, blocked lists, apps), so a busy path does
/// not ask again per request. Bounded: when full, it starts over (the entries are cheap to ask
/// for again, and a bound matters more than which ones go).
///
/// Public and inlinable throughout: a generic class of another module otherwise runs
/// unspecialised in its users (its dictionary hashed and compared through witness tables, type
/// metadata looked up at run time on every call), a measured share of each request. Swift 6.3
/// inlines and specialises no member of a `package` type in another module, `@inlinable` or not
/// (the services' objects still called the generic entry points); of a `public` type it does.
public final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline struct Entry {
        @usableFromInline var value: Value
        @usableFromInline var expires: ContinuousClock.Instant

        @inlinable init(value: Value, expires: ContinuousClock.Instant) {
            (self.value, self.expires) = (value, expires)
        }
    }

    @usableFromInline let entries = Mutex<[Key: Entry]>([:])
    @usableFromInline let maxEntries: Int

    @inlinable package init(maxEntries: Int) {
        self.maxEntries = maxEntries
    }

    /// The value, unless absent or expired.
    @inlinable package func value(for key: Key, now: ContinuousClock.Instant = .now) -> Value? {
        entries.withLock { entries in entries[key].flatMap { $0.expires > now ? $0.value : nil } }
    }

    /// The values of the keys that have one, in one lock.
    @inlinable package func values(for keys: some Sequence<Key>, now: ContinuousClock.Instant = .now) -> [Key: Value] {
        entries.withLock { entries in
            var found: [Key: Value] = [:]
            for key in keys {
                if let entry = entries[key], entry.expires > now { found[key] = entry.value }
            }
            return found
        }
    }

    @inlinable package func removeAll() {
        entries.withLock { $0.removeAll(keepingCapacity: true) }
    }

    @inlinable package func store(_ value: Value, for key: Key, ttl: Duration) {
        store([(key, value)], ttl: ttl)
    }

    @inlinable package func store(_ pairs: some Collection<(Key, Value)>, ttl: Duration) {
        let expires = ContinuousClock.now + ttl
        entries.withLock { entries in
            if entries.count + pairs.count > maxEntries { entries.removeAll(keepingCapacity: true) }
            for (key, value) in pairs { entries[key] = Entry(value: value, expires: expires) }
        }
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
