/// A notification to store.
struct NotificationDraft: Sendable {
    var id: String
    var appID: String
    /// A producer's idempotency key (the notification's id when none).
    var key: String
    var message: PushMessage
    var createdAt: Int64
}
