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

    func deliveryCounts(appID: String, since: Int64) async throws -> (notifications: Int, counts: [DeliveryCount]) {
        try await pool.read { connection in
            let notifications = try await connection.value(
                Int64.self, "SELECT count(*) FROM notification WHERE app_id = \(appID) AND created_at >= \(since)", logger: pool.logger)
            let counts = try await connection.rows(
                """
                SELECT d.platform, d.state, count(*) AS n FROM delivery d JOIN notification n ON n.id = d.notification_id
                WHERE n.app_id = \(appID) AND n.created_at >= \(since) GROUP BY d.platform, d.state
                """, logger: pool.logger
            ) { row in
                DeliveryCount(
                    platform: try row.value("platform", as: String.self), state: try row.value("state", as: String.self),
                    count: Int(try row.value("n", as: Int64.self)))
            }
            return (Int(notifications ?? 0), counts)
        }
    }

    func recentFailures(appID: String, limit: Int) async throws -> [FailedDelivery] {
        try await pool.read { connection in
            try await connection.rows(
                """
                SELECT d.platform, d.state, d.target, coalesce(d.last_error, '') AS error, coalesce(d.finished_at, 0) AS finished_at
                FROM delivery d JOIN notification n ON n.id = d.notification_id
                WHERE n.app_id = \(appID) AND d.state IN ('failed', 'dead') ORDER BY d.finished_at DESC, d.id DESC LIMIT \(limit)
                """, logger: pool.logger
            ) { row in
                FailedDelivery(
                    platform: try row.value("platform", as: String.self), state: try row.value("state", as: String.self),
                    target: try row.value("target", as: String.self), error: try row.value("error", as: String.self),
                    finishedAt: try row.value("finished_at", as: Int64.self))
            }
        }
    }
}
