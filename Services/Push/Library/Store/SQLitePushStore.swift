import Contracts
import GRDB
import ServiceKit

/// `PushStore` on push-svc's SQLite file.
struct SQLitePushStore: PushStore {
    let database: any DatabaseWriter

    func register(token: String, platform: DevicePlatform, appID: String, userID: String, sessionID: String, at time: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: """
                INSERT INTO device (token, app_id, user_id, session_id, platform, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(token) DO UPDATE SET app_id = excluded.app_id, user_id = excluded.user_id, session_id = excluded.session_id,
                    platform = excluded.platform, updated_at = excluded.updated_at
                """, arguments: [token, appID, userID, sessionID, platform.rawValue, time])
        }
    }

    func removeDevices(appID: String, userID: String, sessionID: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM device WHERE app_id = ? AND user_id = ? AND session_id = ?", arguments: [appID, userID, sessionID])
        }
    }

    func enqueue(_ notification: NotificationDraft, users: [String], userTopics: Bool) async throws -> (id: String, deliveries: Int) {
        try await database.write { db -> (id: String, deliveries: Int) in
            if let existing = try String.fetchOne(db, sql: "SELECT id FROM notification WHERE key = ?", arguments: [notification.key]) {
                return (existing, 0)
            }
            let message = notification.message
            try db.execute(sql: "INSERT INTO notification (id, app_id, key, title, body, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [notification.id, notification.appID, notification.key, message.title, message.body, JSONText.encode(message.data),
                                       notification.createdAt])
            var deliveries = 0
            let insert = try db.cachedStatement(sql: """
                INSERT INTO delivery (notification_id, target, platform, state, next_attempt_at) VALUES (?, ?, ?, 'pending', ?)
                """)
            for chunk in stride(from: 0, to: users.count, by: 500).map({ Array(users[$0..<min($0 + 500, users.count)]) }) {
                let devices = try Row.fetchAll(db, sql: """
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

    func claim(dueAt now: Int64, leaseEnd: Int64, limit: Int) async throws -> [ClaimedDelivery] {
        try await database.write { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT d.id, d.target, d.platform, d.attempts, n.title, n.body, n.data FROM delivery AS d JOIN notification AS n ON n.id = d.notification_id
                WHERE d.state IN ('pending', 'sending') AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at, d.id LIMIT ?
                """, arguments: [now, limit])
            let claimed = rows.map { row in
                ClaimedDelivery(id: row["id"], target: row["target"], platform: DevicePlatform(rawValue: row["platform"]) ?? .fcm, attempts: row["attempts"],
                                message: PushMessage(title: row["title"], body: row["body"], data: JSONText.decode(row["data"] as String) ?? [:]))
            }
            let update = try db.cachedStatement(sql: "UPDATE delivery SET state = 'sending', next_attempt_at = ? WHERE id = ?")
            for item in claimed { try update.execute(arguments: [leaseEnd, item.id]) }
            return claimed
        }
    }

    func settle(_ outcomes: [DeliveryOutcome], at now: Int64) async throws {
        try await database.write { db in
            for outcome in outcomes {
                let id = outcome.delivery.id
                switch outcome.state {
                case .sent:
                    try db.execute(sql: "UPDATE delivery SET state = 'sent', attempts = attempts + 1, finished_at = ? WHERE id = ?", arguments: [now, id])
                case .dead(let reason):
                    try db.execute(sql: "UPDATE delivery SET state = 'dead', attempts = attempts + 1, last_error = ?, finished_at = ? WHERE id = ?",
                                   arguments: [reason, now, id])
                    try db.execute(sql: "DELETE FROM device WHERE token = ?", arguments: [outcome.delivery.target])
                case .failed(let reason):
                    try db.execute(sql: "UPDATE delivery SET state = 'failed', attempts = attempts + 1, last_error = ?, finished_at = ? WHERE id = ?",
                                   arguments: [reason, now, id])
                case .retry(let reason, let at):
                    try db.execute(sql: "UPDATE delivery SET state = 'pending', attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?",
                                   arguments: [reason, at, id])
                }
            }
        }
    }
}
