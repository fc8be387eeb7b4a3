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

    func deliveryCounts(appID: String, since: Int64) async throws -> (notifications: Int, counts: [DeliveryCount]) {
        try await database.read { db in
            let notifications =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM notification WHERE app_id = ? AND created_at >= ?", arguments: [appID, since]) ?? 0
            let counts = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.platform, d.state, count(*) FROM delivery d JOIN notification n ON n.id = d.notification_id
                    WHERE n.app_id = ? AND n.created_at >= ? GROUP BY d.platform, d.state
                    """, arguments: [appID, since]
            ).map { DeliveryCount(platform: $0[0], state: $0[1], count: $0[2]) }
            return (notifications, counts)
        }
    }

    func recentFailures(appID: String, limit: Int) async throws -> [FailedDelivery] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.platform, d.state, d.target, coalesce(d.last_error, ''), d.finished_at FROM delivery d
                    JOIN notification n ON n.id = d.notification_id
                    WHERE n.app_id = ? AND d.state IN ('failed', 'dead') ORDER BY d.finished_at DESC, d.id DESC LIMIT ?
                    """, arguments: [appID, limit]
            ).map { FailedDelivery(platform: $0[0], state: $0[1], target: $0[2], error: $0[3], finishedAt: $0[4] ?? 0) }
        }
    }
}
