/// Operators' sessions, and the sign-in failures that lock an email or an address for a while.
protocol SessionStore: Sendable {
    func insert(_ session: SessionRecord) async throws
    /// The session of a token hash if it was used since `idleSince`; its `last_seen_at` moves to
    /// `now` when older than `touchAfter` (one write a minute, not one per request).
    func session(tokenHash: String, idleSince: Int64, now: Int64, touchAfter: Int64) async throws -> SessionRecord?
    func delete(tokenHash: String) async throws
    /// Signs an operator out everywhere (but the session `except` names); answers how many ended.
    func deleteAll(operatorID: String, except: String?) async throws -> Int
    /// Records a failed sign-in under each key (`email:…`, `address:…`).
    func recordFailure(keys: [String], at time: Int64) async throws
    /// The most failures any of the keys has had since `since`.
    func failures(keys: [String], since: Int64) async throws -> Int
}
