import Contracts
import Foundation
import GRDB
import Logging
import ServiceKit
import ServiceLifecycle
import Synchronization

/// Sends the delivery outbox. Rows are claimed with a lease (state `sending`) before their
/// request goes out and settled after: a crash re-sends only the requests in flight at that
/// moment, once their lease expires. Guarantee: every stored delivery is sent at least once
/// until it succeeds, its token dies, or it fails permanently / after 12 attempts.
final class DeliveryWorker: Service, Sendable {
    private let database: any DatabaseWriter
    private let sender: PushSender
    private let logger: Logger
    private let concurrency: Int
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    static let batch = 1_000
    static let lease: Int64 = 30_000
    static let maxAttempts = 12

    init(database: any DatabaseWriter, sender: PushSender, logger: Logger, concurrency: Int = 64) {
        self.database = database
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

    struct Claimed: Sendable {
        var id: Int64
        var target: String
        var platform: DevicePlatform
        var attempts: Int
        var message: PushMessage
    }

    /// Claims and sends due deliveries until none is left.
    func deliverDue() async {
        while true {
            let claimed: [Claimed]
            do {
                claimed = try await claim()
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

    private func claim() async throws -> [Claimed] {
        let now = GlintDate.nowMilliseconds()
        return try await database.write { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT d.id, d.target, d.platform, d.attempts, n.title, n.body, n.data FROM delivery AS d JOIN notification AS n ON n.id = d.notification_id
                WHERE d.state IN ('pending', 'sending') AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at, d.id LIMIT ?
                """, arguments: [now, Self.batch])
            let claimed = rows.map { row in
                Claimed(id: row["id"], target: row["target"], platform: DevicePlatform(rawValue: row["platform"]) ?? .fcm, attempts: row["attempts"],
                        message: PushMessage(title: row["title"], body: row["body"], data: JSONText.decode(row["data"] as String) ?? [:]))
            }
            let update = try db.cachedStatement(sql: "UPDATE delivery SET state = 'sending', next_attempt_at = ? WHERE id = ?")
            for item in claimed { try update.execute(arguments: [now + Self.lease, item.id]) }
            return claimed
        }
    }

    /// At most `concurrency` requests at a time.
    private func send(_ claimed: [Claimed]) async -> [DeliveryResult] {
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

    private func settle(_ claimed: [Claimed], _ results: [DeliveryResult]) async throws {
        let now = GlintDate.nowMilliseconds()
        try await database.write { db in
            for (item, result) in zip(claimed, results) {
                switch result {
                case .sent:
                    try db.execute(sql: "UPDATE delivery SET state = 'sent', attempts = attempts + 1, finished_at = ? WHERE id = ?", arguments: [now, item.id])
                case .dead(let reason):
                    try db.execute(sql: "UPDATE delivery SET state = 'dead', attempts = attempts + 1, last_error = ?, finished_at = ? WHERE id = ?",
                                   arguments: [reason, now, item.id])
                    try DeviceRegistry.prune(db, token: item.target)
                case .failed(let reason):
                    try db.execute(sql: "UPDATE delivery SET state = 'failed', attempts = attempts + 1, last_error = ?, finished_at = ? WHERE id = ?",
                                   arguments: [reason, now, item.id])
                case .retry(let reason, let after):
                    if item.attempts + 1 >= Self.maxAttempts {
                        try db.execute(sql: "UPDATE delivery SET state = 'failed', attempts = attempts + 1, last_error = ?, finished_at = ? WHERE id = ?",
                                       arguments: [reason, now, item.id])
                    } else {
                        let backoff = after.map { Int64($0 * 1000) } ?? Int64(min(300_000, 1000 << min(item.attempts, 9)))
                        try db.execute(sql: "UPDATE delivery SET state = 'pending', attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?",
                                       arguments: [reason, now + backoff, item.id])
                    }
                }
            }
        }
        let failures = results.filter { if case .sent = $0 { return false } else { return true } }.count
        if failures > 0 { logger.notice("deliveries not sent this round", metadata: ["count": "\(failures)", "of": "\(claimed.count)"]) }
    }
}
