import Contracts
import GRDB
import ServiceKit

/// Stores a notification and one delivery row per device of its users (and per FCM user topic
/// when configured), in one transaction: nothing is sent before it is stored.
struct NotificationService: Sendable {
    let database: any DatabaseWriter
    let userTopics: Bool
    /// Wakes the delivery worker.
    let queued: @Sendable () -> Void

    static let maxUsers = 10_000

    /// `key` makes a producer's retry a no-op (the same chat message twice is one notification).
    /// Answers the notification id and how many deliveries it queued.
    func enqueue(appID: String, users: [String], message: PushMessage, key: String? = nil) async throws -> (id: String, deliveries: Int) {
        let users = Array(Set(users))
        guard users.count <= Self.maxUsers else { throw ServiceError.badRequest("at most \(Self.maxUsers) users") }
        guard users.allSatisfy(ObjectID.isValid) else { throw ServiceError.badRequest("invalid user id") }
        let id = ObjectID.generate(), now = GlintDate.nowMilliseconds()
        let result = try await database.write { db -> (id: String, deliveries: Int) in
            if let key, let existing = try String.fetchOne(db, sql: "SELECT id FROM notification WHERE key = ?", arguments: [key]) {
                return (existing, 0)
            }
            try db.execute(sql: "INSERT INTO notification (id, app_id, key, title, body, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [id, appID, key ?? id, message.title, message.body, JSONText.encode(message.data), now])
            var deliveries = 0
            let insert = try db.cachedStatement(sql: """
                INSERT INTO delivery (notification_id, target, platform, state, next_attempt_at) VALUES (?, ?, ?, 'pending', ?)
                """)
            for chunk in stride(from: 0, to: users.count, by: 500).map({ Array(users[$0..<min($0 + 500, users.count)]) }) {
                let devices = try Row.fetchAll(db, sql: """
                    SELECT token, platform FROM device WHERE app_id = ? AND user_id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """, arguments: [appID] + StatementArguments(chunk))
                for device in devices {
                    try insert.execute(arguments: [id, device["token"] as String, device["platform"] as String, now])
                    deliveries += 1
                }
                if userTopics {
                    for user in chunk {
                        try insert.execute(arguments: [id, "user_" + user, DevicePlatform.fcmTopic.rawValue, now])
                        deliveries += 1
                    }
                }
            }
            return (id, deliveries)
        }
        if result.deliveries > 0 { queued() }
        return result
    }
}
