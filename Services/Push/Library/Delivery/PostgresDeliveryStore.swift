import Contracts
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `DeliveryStore` on PostgreSQL. Replicas claim deliveries side by side: a row another replica is
/// claiming is skipped, not waited for.
struct PostgresDeliveryStore: DeliveryStore {
    let pool: PostgresPool

    func claim(dueAt now: Int64, leaseEnd: Int64, limit: Int) async throws -> [ClaimedDelivery] {
        try await pool.read { connection in
            try await connection.rows(
                """
                WITH claimed AS (
                    UPDATE delivery SET state = 'sending', next_attempt_at = \(leaseEnd) WHERE id IN (
                        SELECT id FROM delivery WHERE state IN ('pending', 'sending') AND next_attempt_at <= \(now)
                        ORDER BY next_attempt_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    RETURNING id, target, platform, attempts, notification_id)
                SELECT c.id, c.target, c.platform, c.attempts, n.title, n.body, n.data FROM claimed c JOIN notification n ON n.id = c.notification_id
                ORDER BY c.id
                """, logger: pool.logger
            ) { row in
                try ClaimedDelivery(
                    id: row.value("id"), target: row.value("target"), platform: DevicePlatform(rawValue: row.value("platform")) ?? .fcm,
                    attempts: Int(row.value("attempts", as: Int32.self)),
                    message: PushMessage(
                        title: row.value("title"), body: row.value("body"), data: JSONText.decode(row.value("data", as: String.self)) ?? [:])
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
                    try await connection.query(
                        "UPDATE delivery SET state = 'sent', attempts = attempts + 1, finished_at = \(now) WHERE id = \(id)", logger: logger)
                case .dead(let reason):
                    try await connection.query(
                        """
                        UPDATE delivery SET state = 'dead', attempts = attempts + 1, last_error = \(reason), finished_at = \(now) WHERE id = \(id)
                        """, logger: logger)
                    try await connection.query("DELETE FROM device WHERE token = \(outcome.delivery.target)", logger: logger)
                case .failed(let reason):
                    try await connection.query(
                        """
                        UPDATE delivery SET state = 'failed', attempts = attempts + 1, last_error = \(reason), finished_at = \(now) WHERE id = \(id)
                        """, logger: logger)
                case .retry(let reason, let at):
                    try await connection.query(
                        """
                        UPDATE delivery SET state = 'pending', attempts = attempts + 1, last_error = \(reason), next_attempt_at = \(at) WHERE id = \(id)
                        """, logger: logger)
                }
            }
        }
    }
}
