import GRDB

/// admin-svc's schema on its SQLite file. Migrations are append-only: a landed one is never edited.
enum AdminMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-admin") { db in
            try db.create(table: "admin_operator") { t in
                t.primaryKey("id", .text)
                t.column("email", .text).notNull().unique()
                t.column("password_hash", .text).notNull()
                t.column("totp_secret", .text).notNull()
                t.column("role", .text).notNull().check(sql: "role IN ('owner', 'admin', 'moderator')")
                t.column("apps", .text).notNull().defaults(to: "[]")
                t.column("last_totp_step", .integer).notNull().defaults(to: 0)
                t.column("created_at", .integer).notNull()
            }
            try db.create(table: "admin_session") { t in
                t.primaryKey("token_hash", .text)
                t.column("operator_id", .text).notNull().references("admin_operator", onDelete: .cascade)
                t.column("csrf_token", .text).notNull()
                t.column("address", .text).notNull()
                t.column("created_at", .integer).notNull()
                t.column("last_seen_at", .integer).notNull()
            }
            try db.create(index: "admin_session_by_operator", on: "admin_session", columns: ["operator_id"])
            try db.create(table: "sign_in_failure") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("key", .text).notNull()
                t.column("at", .integer).notNull()
            }
            try db.create(index: "sign_in_failure_by_key", on: "sign_in_failure", columns: ["key", "at"])
            try db.create(table: "audit_entry") { t in
                t.primaryKey("id", .text)
                t.column("at", .integer).notNull()
                t.column("operator_id", .text).notNull()
                t.column("operator_email", .text).notNull()
                t.column("address", .text).notNull()
                t.column("action", .text).notNull()
                t.column("app_id", .text)
                t.column("target_kind", .text)
                t.column("target_id", .text)
                t.column("before", .text)
                t.column("after", .text)
                t.column("request_id", .text).notNull()
            }
            try db.create(index: "audit_entry_by_time", on: "audit_entry", columns: ["at"])
            try db.create(index: "audit_entry_by_app", on: "audit_entry", columns: ["app_id", "at"])
            // The log is append-only whoever writes to the file.
            for event in ["UPDATE", "DELETE"] {
                try db.execute(
                    sql:
                        "CREATE TRIGGER audit_entry_no_\(event.lowercased()) BEFORE \(event) ON audit_entry BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
                )
            }
        }
        migrator.registerMigration("v2-password-changed") { db in
            try db.alter(table: "admin_operator") { t in t.add(column: "password_changed_at", .integer) }
        }
        return migrator
    }
}
