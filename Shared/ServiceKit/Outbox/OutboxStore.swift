/// A producer's outbox as the relay reads and settles it. Producers write messages inside their
/// own transactions (each store engine has its way: `SQLiteOutboxStore.enqueue`).
package protocol OutboxStore: Sendable {
    /// Undelivered messages that are due, oldest first.
    func due(at now: Int64, limit: Int) async throws -> [OutboxMessage]
    /// Whether an undelivered message with the same key was written before `id`: a later message
    /// must not overtake an earlier one (create, move, delete of one post stay in order).
    func hasEarlierPending(key: String, before id: Int64) async throws -> Bool
    func markDelivered(_ id: Int64, at time: Int64) async throws
    func markFailed(_ id: Int64, retryAt: Int64, error: String) async throws
    /// Forgets messages delivered before `time`.
    func prune(deliveredBefore time: Int64) async throws
}

/// A cross-service effect waiting for its consumer.
package struct OutboxMessage: Sendable, Equatable {
    package var id: Int64
    package var topic: String
    package var key: String
    package var payload: String
    package var attempts: Int
}
