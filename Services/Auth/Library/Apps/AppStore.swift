/// The registry of client apps.
protocol AppStore: Sendable {
    /// `StoreError.conflict` when an app already has the key (current or rotated out) or mount.
    func insert(_ app: AppRecord) async throws
    /// Inserts `app` only into an empty registry, in one step however many replicas start at
    /// once: false when there is an app already.
    func insertFirst(_ app: AppRecord) async throws -> Bool
    /// The app whose current key this is, or whose rotated-out key it is still at `now`; a
    /// disabled app opens nothing.
    func app(key: String, at now: Int64) async throws -> AppRecord?
    func app(id: String) async throws -> AppRecord?
    func app(mount: String) async throws -> AppRecord?
    /// Oldest first.
    func apps() async throws -> [AppRecord]
    func count() async throws -> Int
    /// Writes an app's flags and sign-in providers; false when there is no such app.
    func updateSettings(_ app: AppRecord) async throws -> Bool
    /// Makes `newKey` the app's key and its current one the previous, accepted until
    /// `graceUntil` (one that was in its grace stops now); `conflict` when the key is taken.
    func rotateKey(id: String, newKey: String, graceUntil: Int64) async throws -> Bool
    /// Disables the app from `at` (nil: enables it again); false when there is no such app.
    func setDisabled(id: String, at: Int64?) async throws -> Bool
}
