import Contracts
import GRDB
import ServiceKit

/// `NotificationStore` on push-svc's SQLite file.
struct SQLiteNotificationStore: NotificationStore {
    let database: any DatabaseWriter

    func enqueue(_ notification: NotificationDraft, users: [String], userTopics: Bool) async throws -> (id: String, deliveries: Int) {
        try await database.write { db -> (id: String, deliveries: Int) in
            if let existing = try String.fetchOne(db, sql: "SELECT id FROM notification WHERE key = ?", arguments: [notification.key]) {
                return (existing, 0)
            }
            let message = notification.message
            try db.execute(
                sql: "INSERT INTO notification (id, app_id, key, title, body, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    notification.id, notification.appID, notification.key, message.title, message.body, JSONText.encode(message.data),
                    notification.createdAt,
                ])
            var deliveries = 0
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO delivery (notification_id, target, platform, state, next_attempt_at) VALUES (?, ?, ?, 'pending', ?)
                    """)
            for chunk in stride(from: 0, to: users.count, by: 500).map({ Array(users[$0..<min($0 + 500, users.count)]) }) {
                let devices = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT token, platform FROM device WHERE app_id = ? AND user_id IN (\(databaseQuestionMarks(count: chunk.count)))
                        """, arguments: [notification.appID] + StatementArguments(chunk))
                for device in devices {
                    try insert.execute(arguments: [notification.id, device["token"] as String, device["platform"] as String, notification.createdAt])
                    deliveries += 1
                }
                if userTopics {
                    for user in chunk {
                        try insert.execute(arguments: [notification.id, "user_" + user, DevicePlatform.fcmTopic.rawValue, notification.createdAt])
                        deliveries += 1
                    }
                }
            }
            return (notification.id, deliveries)
        }
    }
}
