import Synchronization

/// Values computed from some tables, kept while no commit has changed those tables since they
/// were read (`CommitCounter`). One generation at a time: a change empties it, a rule simple
/// enough to be obviously right (the next reads compute again).
///
/// Read `generation` before reading the file; store what was computed under it. A value stored
/// under an older generation than the counter's is dropped, and lookups under one are empty.
/// Bounded by the summed `cost` of its values (their bytes, say; by default each costs 1).
/// Public and inlinable throughout, as `ExpiringCache` is (why there), so that its users specialise it.
public final class ChangeBoundCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline struct State {
        @usableFromInline var generation: UInt64
        @usableFromInline var entries: [Key: Value] = [:]
        @usableFromInline var cost = 0

        @inlinable init(generation: UInt64 = 0) {
            self.generation = generation
        }
    }

    @usableFromInline let changes: any CommitCounter
    @usableFromInline let state = Mutex(State())
    @usableFromInline let maxCost: Int
    @usableFromInline let cost: @Sendable (Value) -> Int

    @inlinable package init(changes: any CommitCounter, maxCost: Int, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        self.changes = changes
        self.maxCost = maxCost
        self.cost = cost
    }

    @inlinable package var generation: UInt64 { changes.count }

    /// What `take` makes of the kept values of `keys` (nil: not taken), if nothing changed since
    /// `generation`. Made in one pass: a caller that keeps a part of each value copies only that.
    @inlinable package func values<Taken>(for keys: some Sequence<Key>, generation: UInt64, taking take: (Value) -> Taken?) -> [Key: Taken] {
        guard changes.count == generation else { return [:] }
        return state.withLock { state in
            guard state.generation == generation else { return [:] }
            var found: [Key: Taken] = [:]
            for key in keys {
                if let value = state.entries[key], let taken = take(value) { found[key] = taken }
            }
            return found
        }
    }

    @inlinable package func value(for key: Key, generation: UInt64) -> Value? {
        guard changes.count == generation else { return nil }
        return state.withLock { state in state.generation == generation ? state.entries[key] : nil }
    }

    /// Keeps `pairs`, computed from what was read after `generation` was read.
    @inlinable package func store(_ pairs: some Collection<(Key, Value)>, generation: UInt64) {
        let added = pairs.reduce(0) { $0 + cost($1.1) }
        guard !pairs.isEmpty, added <= maxCost, changes.count == generation else { return }
        state.withLock { state in
            if generation != state.generation { state = State(generation: generation) }
            // Bounded: when full it starts over, as anything kept here can be computed again.
            if state.cost + added > maxCost { (state.entries, state.cost) = ([:], 0) }
            for (key, value) in pairs {
                if let replaced = state.entries.updateValue(value, forKey: key) { state.cost -= cost(replaced) }
            }
            state.cost += added
        }
    }
}
