/// The registry of client apps.
protocol AppStore: Sendable {
    /// `StoreError.conflict` when an app already has the key.
    func insert(_ app: AppRecord) async throws
    /// Inserts `app` only into an empty registry, in one step however many replicas start at
    /// once: false when there is an app already.
    func insertFirst(_ app: AppRecord) async throws -> Bool
    func app(key: String) async throws -> AppRecord?
    func app(id: String) async throws -> AppRecord?
    func app(mount: String) async throws -> AppRecord?
    /// Oldest first.
    func apps() async throws -> [AppRecord]
    func count() async throws -> Int
}
