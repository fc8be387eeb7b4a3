import NIOCore
import Synchronization

/// Calls `fire` with each item a fixed `delay` after it was added, and again `delay` later for
/// as long as `fire` answers true. Every item waits the same time, so they fall due in the order
/// they came and one task serves them all, sleeping until the oldest is due: no timer, task or
/// allocation per socket (the heartbeats of 100,000 sockets are two of these). Items are held
/// weakly: a session that went away is simply skipped.
final class DelayQueue<Item: AnyObject & Sendable>: Sendable {
    private struct Entry {
        let due: ContinuousClock.Instant
        weak var item: Item?
    }

    private struct State {
        var entries = CircularBuffer<Entry>()
        var running = false
    }

    let delay: Duration
    private let fire: @Sendable (Item) -> Bool
    private let state = Mutex(State())

    init(delay: Duration, fire: @escaping @Sendable (Item) -> Bool) {
        self.delay = delay
        self.fire = fire
    }

    func add(_ item: Item) {
        let start = state.withLock { state -> Bool in
            state.entries.append(Entry(due: .now + delay, item: item))
            defer { state.running = true }
            return !state.running
        }
        if start { Task { await self.run() } }
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// Serves items until none is left (the next `add` starts it again).
    private func run() async {
        var due: [Item] = []
        while true {
            let next = state.withLock { state -> ContinuousClock.Instant? in
                let now = ContinuousClock.now
                while let first = state.entries.first, first.due <= now {
                    if let item = state.entries.removeFirst().item { due.append(item) }
                }
                if state.entries.isEmpty, due.isEmpty { state.running = false }
                return state.entries.first?.due
            }
            let again = due.filter(fire)
            let fired = !due.isEmpty
            due.removeAll(keepingCapacity: true)
            if !again.isEmpty {
                state.withLock { state in
                    let then = ContinuousClock.now + delay
                    for item in again { state.entries.append(Entry(due: then, item: item)) }
                }
            }
            guard let next else {
                if fired { continue }  // what fired may have added more
                return
            }
            try? await Task.sleep(until: next, clock: .continuous)
        }
    }
}
