/// Recorded walks.
protocol WalkStore: Sendable {
    func insert(_ walk: WalkRecord) async throws
    func walk(id: String, appID: String) async throws -> WalkRecord?
    /// A user's walks, newest first (creation time, then insertion order), after the walk
    /// `after` (its id) when given.
    func walks(of userID: String, appID: String, after: String?, limit: Int) async throws -> [WalkRecord]
}
