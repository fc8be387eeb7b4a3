import NIOCore
import Synchronization

/// Calls `fire` with items a fixed `delay` after they were added, in batches, and again `delay`
/// later with the items `fire` hands back. Every item waits the same time, so they fall due in
/// the order they came and one task serves them all, firing together what falls due within a
/// little slack (a twentieth of the delay, at most a second) of the oldest: up to that much
/// `early` (a ping may leave sooner) or `late` (a deadline must not be judged before it is
/// due). No timer, task or allocation per socket, and about one wake-up a second however many
/// sockets there are (the heartbeats of 100,000 sockets are two of these). Items are held
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

    enum Slack { case early, late }

    let delay: Duration
    /// How much sooner than due an item may fire, and how much later.
    private let lead: Duration, lag: Duration
    private let fire: @Sendable ([Item]) -> [Item]
    private let state = Mutex(State())

    init(delay: Duration, slack: Slack, fire: @escaping @Sendable ([Item]) -> [Item]) {
        self.delay = delay
        let window = min(delay / 20, .seconds(1))
        (lead, lag) = slack == .early ? (window, .zero) : (.zero, window)
        self.fire = fire
    }

    func add(_ items: some Sequence<Item>) {
        let start = state.withLock { state -> Bool in
            let due = ContinuousClock.now + delay
            for item in items { state.entries.append(Entry(due: due, item: item)) }
            guard !state.running, !state.entries.isEmpty else { return false }
            state.running = true
            return true
        }
        if start { Task { await self.run() } }
    }

    /// Serves items until none is left (the next `add` starts it again).
    private func run() async {
        while true {
            let (due, next) = state.withLock { state -> ([Item], ContinuousClock.Instant?) in
                let horizon = ContinuousClock.now + lead
                var due: [Item] = []
                while let first = state.entries.first, first.due <= horizon {
                    if let item = state.entries.removeFirst().item { due.append(item) }
                }
                if state.entries.isEmpty, due.isEmpty { state.running = false }
                return (due, state.entries.first?.due)
            }
            if !due.isEmpty { add(fire(due)) }
            guard let next else {
                if due.isEmpty { return }
                continue  // what fired may have come back
            }
            try? await Task.sleep(until: next + lag, clock: .continuous)
        }
    }
}
