import Contracts
import GRDB
import ServiceKit

/// `DeliveryStore` on push-svc's SQLite file.
struct SQLiteDeliveryStore: DeliveryStore {
    let database: any DatabaseWriter

    func claim(dueAt now: Int64, leaseEnd: Int64, limit: Int) async throws -> [ClaimedDelivery] {
        try await database.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.target, d.platform, d.attempts, n.title, n.body, n.data FROM delivery AS d JOIN notification AS n ON n.id = d.notification_id
                    WHERE d.state IN ('pending', 'sending') AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at, d.id LIMIT ?
                    """, arguments: [now, limit])
            let claimed = rows.map { row in
                ClaimedDelivery(
                    id: row["id"], target: row["target"], platform: DevicePlatform(rawValue: row["platform"]) ?? .fcm, attempts: row["attempts"],
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
                    try db.execute(
                        sql: "UPDATE delivery SET state = 'sent', attempts = attempts + 1, finished_at = ? WHERE id = ?", arguments: [now, id])
                case .dead(let reason):
                    try db.execute(
                        sql: "UPDATE delivery SET state = 'dead', attempts = attempts + 1, last_error = ?, finished_at = ? WHERE id = ?",
                        arguments: [reason, now, id])
                    try db.execute(sql: "DELETE FROM device WHERE token = ?", arguments: [outcome.delivery.target])
                case .failed(let reason):
                    try db.execute(
                        sql: "UPDATE delivery SET state = 'failed', attempts = attempts + 1, last_error = ?, finished_at = ? WHERE id = ?",
                        arguments: [reason, now, id])
                case .retry(let reason, let at):
                    try db.execute(
                        sql: "UPDATE delivery SET state = 'pending', attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?",
                        arguments: [reason, at, id])
                }
            }
        }
    }
}
