import Foundation
import Synchronization

/// Long polls waiting for something to change: `wait(beyond:timeout:)` returns when `changed()`
/// has moved the generation past the one the caller read, or when the timeout runs out, or
/// when the waiting task is cancelled — whichever comes first, without a timer per check.
package final class ChangeWaiters: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Something changed: every waiter returns.
    package func changed() {
        let woken = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    package func wait(beyond generation: UInt64, timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForChange(beyond: generation) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForChange(beyond generation: UInt64) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state in
                    guard state.generation == generation, !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
