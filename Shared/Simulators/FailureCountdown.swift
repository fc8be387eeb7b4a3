import Synchronization

/// "Fail the next n calls": each simulator's way to answer errors on demand.
package final class FailureCountdown: Sendable {
    private let remaining = Mutex(0)

    package init() {}

    package func set(_ count: Int) { remaining.withLock { $0 = count } }

    /// True while failures remain, using one up.
    package func take() -> Bool {
        remaining.withLock { count in
            defer { count = max(0, count - 1) }
            return count > 0
        }
    }
}
