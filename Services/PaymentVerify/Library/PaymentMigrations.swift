import GRDB
import Outbox
import ServiceKit

/// payment-verify-svc's schema. Migrations are append-only: never edit one that has landed.
enum PaymentMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-payments") { db in
            // A verified payment: granted (or being granted through the outbox) exactly once.
            try db.create(table: "payment") { t in
                t.primaryKey("id", .text)
                t.column("imp_uid", .text).notNull().unique()
                t.column("kind", .text).notNull()
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("merchant_uid", .text).notNull()
                t.column("filter_id", .text).notNull()
                t.column("amount", .integer).notNull()
                t.column("coins", .integer).notNull()
                t.column("product_name", .text).notNull()
                t.column("receipt", .text).notNull()
                t.column("paid_at", .integer).notNull()
                t.column("created_at", .integer).notNull()
                t.column("updated_at", .integer).notNull()
            }
            // One payment per order, whatever races between validation and webhooks.
            try db.execute(sql: "CREATE UNIQUE INDEX payment_order ON payment(merchant_uid) WHERE kind = 'order'")
            try db.create(index: "payment_by_user", on: "payment", columns: ["app_id", "user_id", "created_at"])
            // Refused verifications, kept for support and fraud review.
            try db.create(table: "payment_attempt") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("source", .text).notNull()
                t.column("imp_uid", .text).notNull()
                t.column("merchant_uid", .text).notNull()
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("reason", .text).notNull()
                t.column("cancelled", .boolean).notNull()
                t.column("created_at", .integer).notNull()
            }
            try db.create(index: "payment_attempt_by_payment", on: "payment_attempt", columns: ["imp_uid"])
            try SQLiteOutboxStore.createTable(db)
        }
        migrator.registerMigration("v2-refunds") { db in
            // A payment cancelled or refunded at the PG after its grant.
            try db.alter(table: "payment") { t in t.add(column: "refunded_at", .integer) }
        }
        return migrator
    }
}
