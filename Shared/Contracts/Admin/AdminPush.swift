/// Push as operators see it (issue 36): deliveries and failures per provider, a test to one user.

/// One provider's deliveries of notifications made since the window's start.
package struct ProviderDeliveries: Codable, Sendable, Equatable {
    /// `fcm`, `apns` or `fcm-topic`.
    package var provider: String
    package var sent: Int
    /// Failed for good (the provider refused, or retries ran out).
    package var failed: Int
    /// The token was gone (pruned).
    package var dead: Int
    /// Not sent yet (queued or being retried).
    package var pending: Int

    package init(provider: String, sent: Int, failed: Int, dead: Int, pending: Int) {
        (self.provider, self.sent, self.failed, self.dead, self.pending) = (provider, sent, failed, dead, pending)
    }
}

/// A delivery that did not reach its device.
package struct DeliveryFailure: Codable, Sendable, Equatable {
    package var at: String
    package var provider: String
    package var state: String
    package var error: String
    /// The token's last characters (never the token).
    package var targetEnd: String

    package init(at: String, provider: String, state: String, error: String, targetEnd: String) {
        (self.at, self.provider, self.state, self.error, self.targetEnd) = (at, provider, state, error, targetEnd)
    }
}

/// An app's push over a window: notifications made, deliveries per provider, recent failures.
package struct PushStats: Codable, Sendable, Equatable {
    package var since: String
    package var notifications: Int
    package var providers: [ProviderDeliveries]
    package var recentFailures: [DeliveryFailure]

    package init(since: String, notifications: Int, providers: [ProviderDeliveries], recentFailures: [DeliveryFailure]) {
        (self.since, self.notifications, self.providers, self.recentFailures) = (since, notifications, providers, recentFailures)
    }
}

/// admin-svc → push-svc: the window, in hours back from now (1 to 720).
package struct PushStatsQuery: Codable, Sendable, Equatable {
    package var hours: Int

    package init(hours: Int) {
        self.hours = hours
    }
}

/// `POST /admin/api/apps/{app_id}/users/{user_id}/test-push`: a notification to the user's devices.
package struct TestPushRequest: Codable, Sendable, Equatable {
    package var title: String
    package var body: String

    package init(title: String, body: String) {
        (self.title, self.body) = (title, body)
    }
}

/// The test notification queued: its id and how many deliveries (devices, topics) it has.
package struct TestPushAnswer: Codable, Sendable, Equatable {
    package var notificationId: String
    package var deliveries: Int

    package init(notificationId: String, deliveries: Int) {
        (self.notificationId, self.deliveries) = (notificationId, deliveries)
    }
}
