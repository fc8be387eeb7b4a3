import Contracts
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Delivers outbox messages: right after a producer nudges it, and every second for retries.
/// A failed message is retried with exponential backoff (1 s doubling to 5 min), for ever;
/// messages with the same key keep their order. Delivered messages are kept a week, then pruned.
package final class OutboxRelay: Service, Sendable {
    package typealias Deliver = @Sendable (OutboxMessage) async throws -> Void

    private let store: any OutboxStore
    private let deliver: Deliver
    private let logger: Logger
    private let interval: Duration
    private let nudges: AsyncStream<Void>
    private let nudger: AsyncStream<Void>.Continuation

    package init(store: any OutboxStore, logger: Logger, interval: Duration = .seconds(1), deliver: @escaping Deliver) {
        self.store = store
        self.deliver = deliver
        self.logger = logger
        self.interval = interval
        (nudges, nudger) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Call after committing a transaction that enqueued messages.
    package func nudge() {
        nudger.yield()
    }

    package func run() async throws {
        let ticker = Task { [nudger, interval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                nudger.yield()
            }
        }
        defer { ticker.cancel() }
        await cancelWhenGracefulShutdown {
            for await _ in self.nudges {
                await self.deliverDue()
            }
        }
    }

    /// One round: every due message, in order. Exposed for tests that drive rounds themselves.
    package func deliverDue() async {
        let now = GlintDate.nowMilliseconds()
        guard let due = try? await store.due(at: now, limit: 100) else { return }
        var blockedKeys: Set<String> = []
        for message in due {
            if blockedKeys.contains(message.key) { continue }
            if (try? await store.hasEarlierPending(key: message.key, before: message.id)) == true {
                blockedKeys.insert(message.key)
                continue
            }
            do {
                try await deliver(message)
                try await store.markDelivered(message.id, at: GlintDate.nowMilliseconds())
            } catch {
                blockedKeys.insert(message.key)
                let backoff = Int64(min(300_000, 1000 << min(message.attempts, 9)))
                logger.warning("outbox delivery failed; will retry", metadata: [
                    "topic": .string(message.topic), "key": .string(message.key), "attempts": .stringConvertible(message.attempts + 1),
                    "error": .string(String(describing: error)),
                ])
                try? await store.markFailed(message.id, retryAt: GlintDate.nowMilliseconds() + backoff, error: String(describing: error).prefix(500).description)
            }
        }
        try? await store.prune(deliveredBefore: now - 7 * 86_400_000)
    }
}
