import Contracts
import Outbox
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `PaymentStore` on PostgreSQL. Two replicas verifying one payment at once: the unique keys
/// (`imp_uid`, an order's `merchant_uid`) let one insert win; the other finds what won.
struct PostgresPaymentStore: PaymentStore {
    let pool: PostgresPool

    func payment(impUID: String) async throws -> PaymentRecord? {
        try await pool.read { try await $0.record(PaymentRecord.self, "SELECT * FROM payment WHERE imp_uid = \(impUID)", logger: pool.logger) }
    }

    func store(_ payment: PaymentRecord) async throws -> StoredPayment {
        let logger = pool.logger
        do {
            return try await pool.transaction { connection in
                if let existing = try await connection.record(
                    PaymentRecord.self, "SELECT * FROM payment WHERE imp_uid = \(payment.impUID)", logger: logger)
                {
                    return .existing(existing)
                }
                // Each statement sees what committed before it: the order's payment may be this very
                // one, stored by a concurrent verification since the read above.
                if payment.kind == .order,
                    let paid = try await connection.record(
                        PaymentRecord.self, "SELECT * FROM payment WHERE kind = 'order' AND merchant_uid = \(payment.merchantUID)", logger: logger
                    )
                {
                    return paid.impUID == payment.impUID ? .existing(paid) : .orderTaken
                }
                try await connection.query(try PostgresColumns(payment).insert(into: "payment"), logger: logger)
                try await PostgresOutboxStore.enqueue(
                    connection, topic: PaymentGrantEvent.topic, key: payment.impUID, payload: payment.grant, logger: logger)
                return .stored(payment)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            // Stored by another replica between the checks and the insert: its answer, read again.
            if let existing = try await self.payment(impUID: payment.impUID) { return .existing(existing) }
            return .orderTaken
        }
    }

    func recordRefusal(_ attempt: RefusedAttempt) async throws {
        try await pool.transaction {
            try await $0.query(
                """
                INSERT INTO payment_attempt (source, imp_uid, merchant_uid, app_id, user_id, reason, cancelled, created_at)
                VALUES (\(attempt.source), \(attempt.impUID), \(attempt.merchantUID), \(attempt.appID), \(attempt.userID), \(attempt.reason),
                        \(attempt.cancelled), \(attempt.createdAt))
                """, logger: pool.logger)
        }
    }

    func payment(matching id: String, appID: String, userID: String) async throws -> PaymentRecord? {
        try await pool.read {
            try await $0.record(
                PaymentRecord.self,
                """
                SELECT * FROM payment WHERE app_id = \(appID) AND user_id = \(userID)
                AND (imp_uid = \(id) OR merchant_uid = \(id) OR (filter_id = \(id) AND filter_id <> ''))
                ORDER BY created_at DESC LIMIT 1
                """, logger: pool.logger)
        }
    }

    func payments(appID: String, userID: String, limit: Int) async throws -> [PaymentRecord] {
        try await pool.read {
            try await $0.records(
                PaymentRecord.self,
                """
                SELECT * FROM payment WHERE app_id = \(appID) AND user_id = \(userID) ORDER BY created_at DESC, seq DESC LIMIT \(limit)
                """, logger: pool.logger)
        }
    }

    func search(appID: String, _ search: PaymentSearch) async throws -> [PaymentRecord] {
        try await pool.read {
            // An absent criterion (NULL) matches every row.
            try await $0.records(
                PaymentRecord.self,
                """
                SELECT * FROM payment WHERE app_id = \(appID) AND (\(search.userId)::text IS NULL OR user_id = \(search.userId))
                    AND (\(search.merchantUid)::text IS NULL OR merchant_uid = \(search.merchantUid))
                    AND (\(search.impUid)::text IS NULL OR imp_uid = \(search.impUid))
                ORDER BY created_at DESC, seq DESC LIMIT \(search.limit)
                """, logger: pool.logger)
        }
    }

    func activity(appID: String?, since: Int64) async throws -> PaymentActivity {
        try await pool.read { connection in
            // The app's condition is written in or left out (every app): `$1 IS NULL OR …` no index serves.
            func sums(_ column: String) async throws -> (Int, Int) {
                let select = "SELECT count(*) AS n, coalesce(sum(amount), 0)::bigint AS total FROM payment WHERE"
                let query: PostgresQuery =
                    if let appID {
                        "\(unescaped: select) app_id = \(appID) AND \(unescaped: column) >= \(since)"
                    } else {
                        "\(unescaped: select) \(unescaped: column) >= \(since)"
                    }
                let rows = try await connection.rows(query, logger: pool.logger) { row in
                    (Int(try row.value("n", as: Int64.self)), Int(try row.value("total", as: Int64.self)))
                }
                return rows.first ?? (0, 0)
            }
            let (paid, refunded) = (try await sums("created_at"), try await sums("refunded_at"))
            return PaymentActivity(payments: paid.0, paidAmount: paid.1, refunds: refunded.0, refundedAmount: refunded.1)
        }
    }

    func markRefunded(impUID: String, receipt: String, at time: Int64) async throws -> PaymentRecord? {
        let logger = pool.logger
        return try await pool.transaction { connection in
            guard
                let payment = try await connection.record(
                    PaymentRecord.self,
                    """
                    UPDATE payment SET refunded_at = \(time), receipt = \(receipt), updated_at = \(time)
                    WHERE imp_uid = \(impUID) AND refunded_at IS NULL RETURNING *
                    """, logger: logger)
            else { return nil }
            try await PostgresOutboxStore.enqueue(
                connection, topic: PaymentGrantEvent.refundTopic, key: payment.impUID, payload: payment.grant, logger: logger)
            return payment
        }
    }

    func queueWebhook(_ webhook: PaymentWebhook) async throws {
        try await pool.transaction {
            try await PostgresOutboxStore.enqueue($0, topic: PaymentWebhook.topic, key: webhook.impUID, payload: webhook, logger: pool.logger)
        }
    }
}
