import GRDB

/// auth-svc's schema. Migrations are append-only: never edit one that has landed.
enum AuthMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-apps") { db in
            try db.create(table: "app") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("api_key", .text).notNull().unique()
                t.column("profile", .text).notNull().check { ["lslp", "slp"].contains($0) }
                t.column("refresh_with_access_token_only", .boolean).notNull().defaults(to: false)
                t.column("empty_auth_error_bodies", .boolean).notNull().defaults(to: false)
                t.column("socket_auth_optional", .boolean).notNull().defaults(to: false)
                t.column("created_at", .integer).notNull()
            }
        }
        return migrator
    }
}
