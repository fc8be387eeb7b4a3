import Contracts
import GRDB
import Outbox
import ServiceKit

extension PaymentRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "payment"
}

extension PaymentRecord.CodingKeys: ColumnExpression {}

/// `PaymentStore` on payment-verify-svc's SQLite file.
struct SQLitePaymentStore: PaymentStore {
    let database: any DatabaseWriter

    func payment(impUID: String) async throws -> PaymentRecord? {
        try await database.read { db in try PaymentRecord.filter(PaymentRecord.CodingKeys.impUID == impUID).fetchOne(db) }
    }

    func store(_ payment: PaymentRecord) async throws -> StoredPayment {
        try await database.write { db in
            if let existing = try PaymentRecord.filter(PaymentRecord.CodingKeys.impUID == payment.impUID).fetchOne(db) { return .existing(existing) }
            if payment.kind == .order,
                try PaymentRecord.filter(
                    PaymentRecord.CodingKeys.kind == PaymentRecord.Kind.order.rawValue && PaymentRecord.CodingKeys.merchantUID == payment.merchantUID
                )
                .fetchCount(db) > 0
            {
                return .orderTaken
            }
            try payment.insert(db)
            try SQLiteOutboxStore.enqueue(db, topic: PaymentGrantEvent.topic, key: payment.impUID, payload: payment.grant)
            return .stored(payment)
        }
    }

    func recordRefusal(_ attempt: RefusedAttempt) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO payment_attempt (source, imp_uid, merchant_uid, app_id, user_id, reason, cancelled, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    attempt.source, attempt.impUID, attempt.merchantUID, attempt.appID, attempt.userID, attempt.reason, attempt.cancelled,
                    attempt.createdAt,
                ])
        }
    }

    func payment(matching id: String, appID: String, userID: String) async throws -> PaymentRecord? {
        try await database.read { db in
            try PaymentRecord.fetchOne(
                db,
                sql: """
                    SELECT * FROM payment WHERE app_id = ? AND user_id = ? AND (imp_uid = ? OR merchant_uid = ? OR (filter_id = ? AND filter_id != ''))
                    ORDER BY created_at DESC LIMIT 1
                    """, arguments: [appID, userID, id, id, id])
        }
    }

    func payments(appID: String, userID: String, limit: Int) async throws -> [PaymentRecord] {
        try await database.read { db in
            try PaymentRecord.fetchAll(
                db, sql: "SELECT * FROM payment WHERE app_id = ? AND user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
                arguments: [appID, userID, limit])
        }
    }

    func search(appID: String, _ search: PaymentSearch) async throws -> [PaymentRecord] {
        try await database.read { db in
            // An absent criterion (NULL) matches every row.
            try PaymentRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM payment WHERE app_id = ? AND (? IS NULL OR user_id = ?) AND (? IS NULL OR merchant_uid = ?)
                        AND (? IS NULL OR imp_uid = ?)
                    ORDER BY created_at DESC, rowid DESC LIMIT ?
                    """,
                arguments: [
                    appID, search.userId, search.userId, search.merchantUid, search.merchantUid, search.impUid, search.impUid, search.limit,
                ])
        }
    }

    func activity(appID: String?, since: Int64) async throws -> PaymentActivity {
        try await database.read { db in
            // The app's condition is written in or left out (every app): `? IS NULL OR …` no index serves.
            func sums(_ column: String) throws -> (Int, Int) {
                let sql = "SELECT count(*), coalesce(sum(amount), 0) FROM payment WHERE \(appID == nil ? "" : "app_id = ? AND") \(column) >= ?"
                let row = try Row.fetchOne(db, sql: sql, arguments: StatementArguments(appID.map { [$0, since] } ?? [since]) ?? [])
                return (row?[0] ?? 0, row?[1] ?? 0)
            }
            let (paid, refunded) = (try sums("created_at"), try sums("refunded_at"))
            return PaymentActivity(payments: paid.0, paidAmount: paid.1, refunds: refunded.0, refundedAmount: refunded.1)
        }
    }

    func markRefunded(impUID: String, receipt: String, at time: Int64) async throws -> PaymentRecord? {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE payment SET refunded_at = ?, receipt = ?, updated_at = ? WHERE imp_uid = ? AND refunded_at IS NULL",
                arguments: [time, receipt, time, impUID])
            guard db.changesCount > 0, let payment = try PaymentRecord.filter(PaymentRecord.CodingKeys.impUID == impUID).fetchOne(db) else {
                return nil
            }
            try SQLiteOutboxStore.enqueue(db, topic: PaymentGrantEvent.refundTopic, key: payment.impUID, payload: payment.grant)
            return payment
        }
    }

    func queueWebhook(_ webhook: PaymentWebhook) async throws {
        try await database.write { db in
            try SQLiteOutboxStore.enqueue(db, topic: PaymentWebhook.topic, key: webhook.impUID, payload: webhook)
        }
    }
}
