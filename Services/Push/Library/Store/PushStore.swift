/// Devices, notifications and their deliveries (the delivery outbox).
protocol PushStore: Sendable {
    /// `token` for the user's session, moved from whoever had it.
    func register(token: String, platform: DevicePlatform, appID: String, userID: String, sessionID: String, at time: Int64) async throws
    /// The devices the user's session registered (sign-out on that device).
    func removeDevices(appID: String, userID: String, sessionID: String) async throws
    /// The notification and one pending delivery per device of its users (and per FCM user topic
    /// when `userTopics`), in one transaction. A notification with the same key answers the
    /// stored one's id and queues nothing.
    func enqueue(_ notification: NotificationDraft, users: [String], userTopics: Bool) async throws -> (id: String, deliveries: Int)
    /// Due deliveries (pending, or sending with an expired lease), leased until `leaseEnd`.
    func claim(dueAt now: Int64, leaseEnd: Int64, limit: Int) async throws -> [ClaimedDelivery]
    /// How each claimed delivery ended, in one transaction; dead tokens are pruned.
    func settle(_ outcomes: [DeliveryOutcome], at now: Int64) async throws
}

/// A notification to store.
struct NotificationDraft: Sendable {
    var id: String
    var appID: String
    /// A producer's idempotency key (the notification's id when none).
    var key: String
    var message: PushMessage
    var createdAt: Int64
}

/// A delivery being sent.
struct ClaimedDelivery: Sendable {
    var id: Int64
    var target: String
    var platform: DevicePlatform
    var attempts: Int
    var message: PushMessage
}

/// What to record of a delivery attempt.
struct DeliveryOutcome: Sendable {
    enum State: Sendable {
        case sent
        /// The token is gone: prune it.
        case dead(String)
        case failed(String)
        case retry(String, at: Int64)
    }

    var delivery: ClaimedDelivery
    var state: State
}
