/// Notifications, each stored with its deliveries before anything is sent.
protocol NotificationStore: Sendable {
    /// The notification and one pending delivery per device of its users (and per FCM user topic
    /// when `userTopics`), in one transaction. A notification with the same key answers the
    /// stored one's id and queues nothing.
    func enqueue(_ notification: NotificationDraft, users: [String], userTopics: Bool) async throws -> (id: String, deliveries: Int)
}
