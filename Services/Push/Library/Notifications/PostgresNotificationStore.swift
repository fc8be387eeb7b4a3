import Contracts
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `NotificationStore` on PostgreSQL.
struct PostgresNotificationStore: NotificationStore {
    let pool: PostgresPool

    func enqueue(_ notification: NotificationDraft, users: [String], userTopics: Bool) async throws -> (id: String, deliveries: Int) {
        let logger = pool.logger
        let message = notification.message
        return try await pool.transaction { connection in
            // The same key stored meanwhile by another replica: this insert waits for its commit, then does nothing.
            let stored = try await connection.count(
                """
                INSERT INTO notification (id, app_id, key, title, body, data, created_at)
                VALUES (\(notification.id), \(notification.appID), \(notification.key), \(message.title), \(message.body), \(JSONText.encode(message.data)),
                        \(notification.createdAt))
                ON CONFLICT (key) DO NOTHING RETURNING 1
                """, logger: logger)
            guard stored > 0 else {
                let existing = try await connection.value(String.self, "SELECT id FROM notification WHERE key = \(notification.key)", logger: logger)
                return (existing ?? notification.id, 0)
            }
            let topics = userTopics ? users.map { "user_" + $0 } : []
            let deliveries =
                try await connection.value(
                    Int.self,
                    """
                    WITH queued AS (
                        INSERT INTO delivery (notification_id, target, platform, state, next_attempt_at)
                        SELECT \(notification.id), token, platform, 'pending', \(notification.createdAt) FROM device
                        WHERE app_id = \(notification.appID) AND user_id = ANY(\(users))
                        UNION ALL
                        SELECT \(notification.id), topic, \(DevicePlatform.fcmTopic.rawValue), 'pending', \(notification.createdAt) FROM unnest(\(topics)::text[]) topic
                        RETURNING 1)
                    SELECT COUNT(*) FROM queued
                    """, logger: logger) ?? 0
            return (notification.id, deliveries)
        }
    }
}
