import Contracts
import Foundation
import Logging
import Outbox
import ServiceKit
import ServiceLifecycle
import Synchronization

/// Sends the delivery outbox. Rows are claimed with a lease (state `sending`) before their
/// request goes out and settled after: a crash re-sends only the requests in flight at that
/// moment, once their lease expires. Guarantee: every stored delivery is sent at least once
/// until it succeeds, its token dies, or it fails permanently / after 12 attempts.
final class DeliveryWorker: Service, Sendable {
    private let store: any DeliveryStore
    private let sender: PushSender
    private let logger: Logger
    private let concurrency: Int
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    static let batch = 1_000
    static let lease: Int64 = 30_000
    static let maxAttempts = 12

    init(store: any DeliveryStore, sender: PushSender, logger: Logger, concurrency: Int = 64) {
        self.store = store
        self.sender = sender
        self.logger = logger
        self.concurrency = concurrency
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func nudge() { wake.yield() }

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [wake] in
                // A tick for retries that come due while nothing new arrives.
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    wake.yield()
                }
            }
            group.addTask { [self] in
                for await _ in wakes.cancelOnGracefulShutdown() { await deliverDue() }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Claims and sends due deliveries until none is left.
    func deliverDue() async {
        while true {
            let claimed: [ClaimedDelivery]
            do {
                let now = GlintDate.nowMilliseconds()
                claimed = try await store.claim(dueAt: now, leaseEnd: now + Self.lease, limit: Self.batch)
            } catch {
                logger.error("delivery claim failed", metadata: ["error": "\(error)"])
                return
            }
            if claimed.isEmpty { return }
            let results = await send(claimed)
            do {
                try await settle(claimed, results)
            } catch {
                logger.error("delivery results not stored", metadata: ["error": "\(error)"])
                return
            }
            if claimed.count < Self.batch { return }
        }
    }

    /// At most `concurrency` requests at a time.
    private func send(_ claimed: [ClaimedDelivery]) async -> [DeliveryResult] {
        await withTaskGroup(of: (Int, DeliveryResult).self) { group in
            var results = [DeliveryResult](repeating: .failed("not sent"), count: claimed.count)
            var next = 0
            while next < min(concurrency, claimed.count) {
                let index = next, item = claimed[index]
                group.addTask { (index, await self.sender.send(item.platform, item.target, item.message)) }
                next += 1
            }
            for await (index, result) in group {
                results[index] = result
                if next < claimed.count {
                    let nextIndex = next, item = claimed[nextIndex]
                    group.addTask { (nextIndex, await self.sender.send(item.platform, item.target, item.message)) }
                    next += 1
                }
            }
            return results
        }
    }

    /// Retries come after the provider's delay or an exponential backoff (1 s doubling to 5 min),
    /// until `maxAttempts`.
    private func settle(_ claimed: [ClaimedDelivery], _ results: [DeliveryResult]) async throws {
        let now = GlintDate.nowMilliseconds()
        try await store.settle(
            zip(claimed, results).map { item, result in
                let state: DeliveryOutcome.State =
                    switch result {
                    case .sent: .sent
                    case .dead(let reason): .dead(reason)
                    case .failed(let reason): .failed(reason)
                    case .retry(let reason, _) where item.attempts + 1 >= Self.maxAttempts: .failed(reason)
                    case .retry(let reason, let after):
                        .retry(reason, at: now + (after.map { Int64($0 * 1000) } ?? Int64(min(300_000, 1000 << min(item.attempts, 9)))))
                    }
                return DeliveryOutcome(delivery: item, state: state)
            }, at: now)
        let failures = results.filter { if case .sent = $0 { return false } else { return true } }.count
        if failures > 0 { logger.notice("deliveries not sent this round", metadata: ["count": "\(failures)", "of": "\(claimed.count)"]) }
    }
}
