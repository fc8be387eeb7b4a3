import GRDB

/// geo-svc's schema. Migrations are append-only: never edit one that has landed.
enum GeoMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-post-locations") { db in
            // Where market-svc's public, located posts are; `id` is shared with the R*Tree row.
            try db.create(table: "post_location") { t in
                t.primaryKey("id", .integer)
                t.column("post_id", .text).notNull().unique()
                t.column("app_id", .text).notNull()
                t.column("category", .text).notNull()
                t.column("longitude", .double).notNull()
                t.column("latitude", .double).notNull()
                t.column("created_at", .integer).notNull()
            }
            // Points as zero-size boxes. R*Tree stores 32-bit floats rounded outwards, so the
            // prefilter never misses a point; exact distances come from `post_location`.
            try db.execute(sql: "CREATE VIRTUAL TABLE post_location_box USING rtree(id, min_lon, max_lon, min_lat, max_lat)")
        }
        migrator.registerMigration("v1-walks") { db in
            try db.create(table: "walk") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("title", .text).notNull()
                t.column("post_id", .text).notNull()
                t.column("distance_m", .double).notNull()
                t.column("duration_s", .integer).notNull()
                t.column("calories", .double).notNull()
                t.column("started_at", .integer).notNull()
                t.column("ended_at", .integer).notNull()
                t.column("min_latitude", .double).notNull()
                t.column("min_longitude", .double).notNull()
                t.column("max_latitude", .double).notNull()
                t.column("max_longitude", .double).notNull()
                t.column("path", .text).notNull()
                t.column("start_address", .text).notNull()
                t.column("created_at", .integer).notNull()
            }
            // A user's walks newest first (ids are time-ordered).
            try db.create(index: "walk_by_user", on: "walk", columns: ["app_id", "user_id", "id"])
        }
        migrator.registerMigration("v2-walks-by-time") { db in
            // Ids order walks only to the second; lists go by creation time, then insertion.
            try db.drop(index: "walk_by_user")
            try db.create(index: "walk_by_user_time", on: "walk", columns: ["app_id", "user_id", "created_at"])
        }
        migrator.registerMigration("v3-location-versions") { db in
            // Events come twice (ahead of market-svc's outbox, then from it) and may cross: the
            // newest change of a post wins, and a removed post keeps its row (no box) as the
            // version that refuses older placings.
            try db.alter(table: "post_location") { t in
                t.add(column: "version", .integer).notNull().defaults(to: 0)
                t.add(column: "removed", .boolean).notNull().defaults(to: false)
            }
        }
        return migrator
    }
}
