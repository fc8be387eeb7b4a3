import Contracts
import PostgresNIO
import ServiceKit

/// `PushStore` on PostgreSQL. Replicas claim deliveries side by side: a row another replica is
/// claiming is skipped, not waited for.
struct PostgresPushStore: PushStore {
    let pool: PostgresPool

    func register(token: String, platform: DevicePlatform, appID: String, userID: String, sessionID: String, at time: Int64) async throws {
        try await pool.client.query("""
            INSERT INTO device (token, app_id, user_id, session_id, platform, updated_at)
            VALUES (\(token), \(appID), \(userID), \(sessionID), \(platform.rawValue), \(time))
            ON CONFLICT (token) DO UPDATE SET app_id = excluded.app_id, user_id = excluded.user_id, session_id = excluded.session_id,
                platform = excluded.platform, updated_at = excluded.updated_at
            """, logger: pool.logger)
    }

    func removeDevices(appID: String, userID: String, sessionID: String) async throws {
        try await pool.client.query("DELETE FROM device WHERE app_id = \(appID) AND user_id = \(userID) AND session_id = \(sessionID)", logger: pool.logger)
    }

    func enqueue(_ notification: NotificationDraft, users: [String], userTopics: Bool) async throws -> (id: String, deliveries: Int) {
        let logger = pool.logger
        let message = notification.message
        return try await pool.transaction { connection in
            // The same key stored meanwhile by another replica: this insert waits for its commit, then does nothing.
            let stored = try await connection.count("""
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
            let deliveries = try await connection.value(Int.self, """
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

    func claim(dueAt now: Int64, leaseEnd: Int64, limit: Int) async throws -> [ClaimedDelivery] {
        try await pool.read { connection in
            try await connection.rows("""
                WITH claimed AS (
                    UPDATE delivery SET state = 'sending', next_attempt_at = \(leaseEnd) WHERE id IN (
                        SELECT id FROM delivery WHERE state IN ('pending', 'sending') AND next_attempt_at <= \(now)
                        ORDER BY next_attempt_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    RETURNING id, target, platform, attempts, notification_id)
                SELECT c.id, c.target, c.platform, c.attempts, n.title, n.body, n.data FROM claimed c JOIN notification n ON n.id = c.notification_id
                ORDER BY c.id
                """, logger: pool.logger) { row in
                try ClaimedDelivery(
                    id: row.value("id"), target: row.value("target"), platform: DevicePlatform(rawValue: row.value("platform")) ?? .fcm,
                    attempts: Int(row.value("attempts", as: Int32.self)),
                    message: PushMessage(title: row.value("title"), body: row.value("body"), data: JSONText.decode(row.value("data", as: String.self)) ?? [:])
                )
            }
        }
    }

    func settle(_ outcomes: [DeliveryOutcome], at now: Int64) async throws {
        let logger = pool.logger
        try await pool.transaction { connection in
            for outcome in outcomes {
                let id = outcome.delivery.id
                switch outcome.state {
                case .sent:
                    try await connection.query("UPDATE delivery SET state = 'sent', attempts = attempts + 1, finished_at = \(now) WHERE id = \(id)", logger: logger)
                case .dead(let reason):
                    try await connection.query("""
                        UPDATE delivery SET state = 'dead', attempts = attempts + 1, last_error = \(reason), finished_at = \(now) WHERE id = \(id)
                        """, logger: logger)
                    try await connection.query("DELETE FROM device WHERE token = \(outcome.delivery.target)", logger: logger)
                case .failed(let reason):
                    try await connection.query("""
                        UPDATE delivery SET state = 'failed', attempts = attempts + 1, last_error = \(reason), finished_at = \(now) WHERE id = \(id)
                        """, logger: logger)
                case .retry(let reason, let at):
                    try await connection.query("""
                        UPDATE delivery SET state = 'pending', attempts = attempts + 1, last_error = \(reason), next_attempt_at = \(at) WHERE id = \(id)
                        """, logger: logger)
                }
            }
        }
    }
}
