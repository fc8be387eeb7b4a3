/// Notifications, each stored with its deliveries before anything is sent.
protocol NotificationStore: Sendable {
    /// The notification and one pending delivery per device of its users (and per FCM user topic
    /// when `userTopics`), in one transaction. A notification with the same key answers the
    /// stored one's id and queues nothing.
    func enqueue(_ notification: NotificationDraft, users: [String], userTopics: Bool) async throws -> (id: String, deliveries: Int)
    /// An app's notifications made since `since`, and their deliveries counted by platform and state.
    func deliveryCounts(appID: String, since: Int64) async throws -> (notifications: Int, counts: [DeliveryCount])
    /// The app's latest deliveries that failed or found their token gone, newest first.
    func recentFailures(appID: String, limit: Int) async throws -> [FailedDelivery]
}

/// How many deliveries of one platform ended (or wait) in one state.
struct DeliveryCount: Sendable, Equatable {
    var platform: String
    var state: String
    var count: Int
}

/// A delivery that did not reach its device, as stored.
struct FailedDelivery: Sendable, Equatable {
    var platform: String
    var state: String
    var target: String
    var error: String
    var finishedAt: Int64
}
