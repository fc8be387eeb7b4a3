import Contracts
import Foundation
import Logging
import ServiceKit
import ServiceLifecycle
import Synchronization

/// Delivers outbox messages: right after a producer nudges it, and every second for retries.
/// A failed message is retried with exponential backoff (1 s doubling to 5 min), for ever;
/// messages with the same key keep their order. Delivered messages are kept a week, then pruned.
/// A consumer that takes messages in batches gets a round's in as few calls as its size allows.
package final class OutboxRelay: Service, Sendable {
    package typealias Deliver = @Sendable (OutboxMessage) async throws -> Void
    package typealias DeliverBatch = @Sendable ([OutboxMessage]) async throws -> Void

    private let store: any OutboxStore
    private let deliver: DeliverBatch
    /// A batch's bounds: messages, and payload bytes (the consumer's body limit).
    private let batchCount: Int, batchBytes: Int
    private let logger: Logger
    private let interval: Duration
    private let nudges: AsyncStream<Void>
    private let nudger: AsyncStream<Void>.Continuation
    private let lastPrune = Mutex<Int64>(0)
    /// How long a round waits after the last before taking the next nudge.
    private let gather: Duration
    /// How long a round's messages are its own where several processes relay one outbox: longer
    /// than a round takes (a call's timeout is seconds), short enough that a relay that died
    /// holds nothing up for long.
    private static let lease: Int64 = 60_000

    /// One message per call.
    package convenience init(
        store: any OutboxStore, logger: Logger, interval: Duration = .seconds(1), gather: Duration = .milliseconds(50), deliver: @escaping Deliver
    ) {
        self.init(store: store, logger: logger, interval: interval, gather: gather, batchCount: 1, batchBytes: .max) { try await deliver($0[0]) }
    }

    /// Up to `batchCount` messages of at most `batchBytes` payload bytes in all per call (a
    /// larger message goes alone).
    package init(
        store: any OutboxStore, logger: Logger, interval: Duration = .seconds(1), gather: Duration = .milliseconds(50),
        batchCount: Int, batchBytes: Int, deliver: @escaping DeliverBatch
    ) {
        self.store = store
        self.gather = gather
        self.deliver = deliver
        (self.batchCount, self.batchBytes) = (batchCount, batchBytes)
        self.logger = logger
        self.interval = interval
        (nudges, nudger) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Call after committing a transaction that enqueued messages.
    package func nudge() {
        nudger.yield()
    }

    /// Delivers a message now, through the relay's own consumer, for a request that must see its
    /// effect before it answers (what a user's request changed shows in their next request: coins
    /// granted, an account's content gone). The same message waits in the outbox too, written in
    /// the request's transaction; the relay delivers it again (consumers are idempotent) and
    /// finishes it when this fails, so a failure is logged, not thrown.
    package func deliverAhead(topic: String, key: String, payload: some Encodable) async {
        let message = OutboxMessage(id: 0, topic: topic, key: key, payload: JSONText.encode(payload), attempts: 0)
        do {
            try await deliver([message])
        } catch {
            logger.warning(
                "delivery ahead of the outbox failed; the outbox will make it",
                metadata: [
                    "topic": .string(topic), "key": .string(key), "error": .string(String(describing: error)),
                ])
        }
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
                // A round stuck in the database driver is left once its lease is over: its
                // messages are due again by then, and the loop (and shutdown) go on.
                do {
                    try await abandoning(after: .milliseconds(Self.lease)) { await self.deliverDue() }
                } catch is OperationAbandoned {
                    self.logger.error("outbox round outlived its lease; left behind, its messages will go again")
                } catch {
                    return
                }
                // Nudges that come meanwhile fold into one (the stream keeps the newest): under a
                // steady stream of messages a round carries several, not one each.
                try? await Task.sleep(for: self.gather)
            }
        }
    }

    /// One round: every due message, in order; the delivered ones settled together at the end
    /// (a crash before that delivers them again: consumers are idempotent). A read and a write
    /// per round however many messages it carries.
    package func deliverDue() async {
        let now = GlintDate.nowMilliseconds()
        guard let due = try? await store.due(at: now, limit: 100, lease: Self.lease), !due.isEmpty else {
            await pruneIfDue(now)
            return
        }
        var blockedKeys: Set<String> = []
        var delivered: [Int64] = [], untried: [Int64] = []
        for batch in batches(of: due) {
            // A key whose earlier message failed in this round waits for its retry.
            untried += batch.filter { blockedKeys.contains($0.key) }.map(\.id)
            let batch = batch.filter { !blockedKeys.contains($0.key) }
            guard !batch.isEmpty else { continue }
            do {
                try await deliver(batch)
                delivered += batch.map(\.id)
            } catch {
                for message in batch {
                    blockedKeys.insert(message.key)
                    await failed(message, error)
                }
            }
        }
        do {
            try await store.markDelivered(delivered, at: GlintDate.nowMilliseconds())
        } catch {
            logger.warning("outbox could not record deliveries; they will be made again", metadata: ["error": .string(String(describing: error))])
        }
        // Not given back, they would wait for the lease to run out (a crashed relay's case).
        try? await store.release(untried)
        await pruneIfDue(now)
    }

    /// `messages` in order, cut into batches within the bounds.
    private func batches(of messages: [OutboxMessage]) -> [[OutboxMessage]] {
        var batches: [[OutboxMessage]] = []
        var bytes = 0
        for message in messages {
            let size = message.payload.utf8.count
            if let last = batches.last, last.count < batchCount, bytes + size <= batchBytes {
                batches[batches.count - 1].append(message)
                bytes += size
            } else {
                batches.append([message])
                bytes = size
            }
        }
        return batches
    }

    private func failed(_ message: OutboxMessage, _ error: any Error) async {
        let backoff = Int64(min(300_000, 1000 << min(message.attempts, 9)))
        logger.warning(
            "outbox delivery failed; will retry",
            metadata: [
                "topic": .string(message.topic), "key": .string(message.key), "attempts": .stringConvertible(message.attempts + 1),
                "error": .string(String(describing: error)),
            ])
        try? await store.markFailed(
            message.id, retryAt: GlintDate.nowMilliseconds() + backoff, error: String(describing: error).prefix(500).description)
    }

    /// Delivered messages are forgotten after a week, looked for once an hour.
    private func pruneIfDue(_ now: Int64) async {
        guard
            lastPrune.withLock({ last in
                guard now - last >= 3_600_000 else { return false }
                last = now
                return true
            })
        else { return }
        try? await store.prune(deliveredBefore: now - 7 * 86_400_000)
    }
}
