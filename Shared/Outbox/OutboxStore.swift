import ServiceKit

/// A producer's outbox as the relay reads and settles it. Producers write messages inside their
/// own transactions (each store engine has its way: `SQLiteOutboxStore.enqueue`).
package protocol OutboxStore: Sendable {
    /// Undelivered messages that are due, oldest first, leaving out every key with an undelivered
    /// message that is not due yet (it failed and waits for its retry, or another relay has it):
    /// a key's later messages must not overtake it (create, move, delete of one post stay in
    /// order). A message waits only after being tried, and is then its key's earliest. Where
    /// several processes relay one outbox, the answer is theirs alone until delivered, failed or
    /// `lease` has passed (a relay that died mid-round).
    func due(at now: Int64, limit: Int, lease: Int64) async throws -> [OutboxMessage]
    /// Settles the messages of one round in one write.
    func markDelivered(_ ids: [Int64], at time: Int64) async throws
    func markFailed(_ id: Int64, retryAt: Int64, error: String) async throws
    /// Messages a round took but did not try (their key's earlier message failed in it): theirs
    /// no longer, they wait only for that message.
    func release(_ ids: [Int64]) async throws
    /// Forgets messages delivered before `time`.
    func prune(deliveredBefore time: Int64) async throws
    /// Makes messages delivered at or after `time` due again at `now`; answers how many. A
    /// restored snapshot's parts are taken one after another, so a consumer's copy may predate
    /// a delivery its producer's copy records: those are sent again (consumers are idempotent).
    func redeliver(deliveredSince time: Int64, at now: Int64) async throws -> Int
}

/// A cross-service effect waiting for its consumer.
package struct OutboxMessage: Sendable, Equatable {
    package var id: Int64
    package var topic: String
    package var key: String
    package var payload: String
    package var attempts: Int
}
