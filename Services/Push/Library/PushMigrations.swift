import GRDB

/// push-svc's schema. Migrations are append-only: never edit one that has landed.
enum PushMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-push") { db in
            // A device belongs to one user at a time: registering its token again moves it.
            try db.create(table: "device") { t in
                t.primaryKey("token", .text)
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("session_id", .text).notNull()
                t.column("platform", .text).notNull()
                t.column("updated_at", .integer).notNull()
            }
            try db.create(index: "device_by_user", on: "device", columns: ["app_id", "user_id"])
            // Every notification is stored before delivery; `key` makes producers' retries idempotent.
            try db.create(table: "notification") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("key", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("body", .text).notNull()
                t.column("data", .text).notNull()
                t.column("created_at", .integer).notNull()
            }
            // One row per device (or FCM topic) to reach: the delivery outbox.
            try db.create(table: "delivery") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("notification_id", .text).notNull()
                t.column("target", .text).notNull()
                t.column("platform", .text).notNull()
                t.column("state", .text).notNull()
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("next_attempt_at", .integer).notNull()
                t.column("last_error", .text)
                t.column("finished_at", .integer)
            }
            try db.create(index: "delivery_due", on: "delivery", columns: ["state", "next_attempt_at"])
        }
        migrator.registerMigration("v2-delivery-stats") { db in
            // Operators' counts per app and window, and the join from a delivery to its app.
            try db.create(index: "notification_by_app", on: "notification", columns: ["app_id", "created_at"])
            try db.create(index: "delivery_by_notification", on: "delivery", columns: ["notification_id"])
        }
        return migrator
    }
}
