/// The reports queue operators work (admin-svc asks): reports of an app by state, and their closing.
protocol ReportQueueStore: Sendable {
    /// Reports of the app, open or closed, optionally of one target type, oldest first, at most `limit`.
    func reports(appID: String, open: Bool, targetType: String?, limit: Int) async throws -> [QueuedReport]
    /// How many targets of the app have open reports, and when the oldest open one came.
    func openSummary(appID: String) async throws -> (targets: Int, oldest: Int64?)
    /// Closes a target's open reports; answers how many.
    func close(appID: String, targetType: String, targetID: String, action: String, operatorID: String, at time: Int64) async throws -> Int
}
