import Synchronization

/// Answers of other services kept for a while (users, blocked lists, apps), so a busy path does
/// not ask again per request. Bounded: when full, it starts over (the entries are cheap to ask
/// for again, and a bound matters more than which ones go).
package final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var expires: ContinuousClock.Instant
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let maxEntries: Int

    package init(maxEntries: Int) {
        self.maxEntries = maxEntries
    }

    /// The value, unless absent or expired.
    package func value(for key: Key, now: ContinuousClock.Instant = .now) -> Value? {
        entries.withLock { entries in entries[key].flatMap { $0.expires > now ? $0.value : nil } }
    }

    /// The values of the keys that have one, in one lock.
    package func values(for keys: some Sequence<Key>, now: ContinuousClock.Instant = .now) -> [Key: Value] {
        entries.withLock { entries in
            var found: [Key: Value] = [:]
            for key in keys {
                if let entry = entries[key], entry.expires > now { found[key] = entry.value }
            }
            return found
        }
    }

    package func removeAll() {
        entries.withLock { $0.removeAll(keepingCapacity: true) }
    }

    package func store(_ value: Value, for key: Key, ttl: Duration) {
        store([(key, value)], ttl: ttl)
    }

    package func store(_ pairs: some Collection<(Key, Value)>, ttl: Duration) {
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
    package func values(
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
    package func value(for key: String, since changes: any CommitCounter, ttl: Duration, fetch: () async throws -> Value) async throws -> Value {
        let key = Self.generation(changes) + key
        if let kept = value(for: key) { return kept }
        let fetched = try await fetch()
        store(fetched, for: key, ttl: ttl)
        return fetched
    }

    /// `values(_:scope:ttl:id:fetch:)`, keeping only what was fetched since `changes` last moved.
    package func values(
        _ ids: [String], scope: String, since changes: any CommitCounter, ttl: Duration, id: (Value) -> String,
        fetch: ([String]) async throws -> [Value]
    ) async throws -> [String: Value] {
        try await values(ids, scope: Self.generation(changes) + scope, ttl: ttl, id: id, fetch: fetch)
    }

    private static func generation(_ changes: any CommitCounter) -> String { "\(changes.count)/" }
}
