import GRDB
import Outbox
import ServiceKit

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
        migrator.registerMigration("v2-users-sessions") { db in
            try db.alter(table: "app") { t in
                t.add(column: "apple_client_ids", .text).notNull().defaults(to: "")
                t.add(column: "kakao_app_id", .text).notNull().defaults(to: "")
            }
            try db.create(table: "user") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull().references("app", onDelete: .cascade)
                t.column("email", .text).notNull()
                t.column("email_key", .text).notNull()
                t.column("password_hash", .text)
                t.column("nick", .text).notNull()
                t.column("nick_key", .text).notNull()
                for column in [
                    "phone_num", "birth_day", "gender", "info1", "info2", "info3", "info4", "info5", "name", "introduction", "description",
                ] {
                    t.column(column, .text).notNull().defaults(to: "")
                }
                t.column("hash_tags", .text).notNull().defaults(to: "[]")
                t.column("profile_image", .text)
                t.column("created_at", .integer).notNull()
                t.column("updated_at", .integer).notNull()
            }
            try db.execute(sql: "CREATE UNIQUE INDEX user_email ON user(app_id, email_key) WHERE email_key <> ''")
            try db.create(index: "user_nick", on: "user", columns: ["app_id", "nick_key"])
            try db.create(table: "social_identity") { t in
                t.column("app_id", .text).notNull()
                t.column("provider", .text).notNull()
                t.column("subject", .text).notNull()
                t.column("user_id", .text).notNull().references("user", onDelete: .cascade)
                t.primaryKey(["app_id", "provider", "subject"])
            }
            try db.create(table: "session") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull().references("user", onDelete: .cascade).indexed()
                t.column("device_token", .text)
                t.column("created_at", .integer).notNull()
                t.column("revoked_at", .integer)
                t.column("revoke_reason", .text)
            }
            try db.create(table: "refresh_token") { t in
                t.primaryKey("hash", .text)
                t.column("session_id", .text).notNull().references("session", onDelete: .cascade).indexed()
                t.column("created_at", .integer).notNull()
                t.column("expires_at", .integer).notNull()
                t.column("rotated_at", .integer)
            }
            try db.create(table: "follow") { t in
                t.column("follower_id", .text).notNull().references("user", onDelete: .cascade)
                t.column("following_id", .text).notNull().references("user", onDelete: .cascade).indexed()
                t.column("created_at", .integer).notNull()
                t.primaryKey(["follower_id", "following_id"])
            }
            try db.create(table: "block") { t in
                t.column("blocker_id", .text).notNull().references("user", onDelete: .cascade)
                t.column("blocked_id", .text).notNull().references("user", onDelete: .cascade).indexed()
                t.column("created_at", .integer).notNull()
                t.primaryKey(["blocker_id", "blocked_id"])
            }
            try db.create(table: "report") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("reporter_id", .text).notNull().references("user", onDelete: .cascade)
                t.column("target_type", .text).notNull()
                t.column("target_id", .text).notNull()
                t.column("reason", .text).notNull()
                t.column("created_at", .integer).notNull()
                t.uniqueKey(["reporter_id", "target_type", "target_id"])
            }
            try db.create(table: "attendance") { t in
                t.column("user_id", .text).notNull().references("user", onDelete: .cascade)
                t.column("day", .text).notNull()
                t.column("created_at", .integer).notNull()
                t.primaryKey(["user_id", "day"])
            }
        }
        migrator.registerMigration("v3-outbox") { db in
            // Device tokens of logins, for push-svc.
            try SQLiteOutboxStore.createTable(db)
        }
        migrator.registerMigration("v4-app-mounts") { db in
            // The quotehub profile (API.md §9), whose apps are named by a path prefix instead of a
            // key. SQLite cannot change a CHECK: the table is rebuilt (the migrator checks foreign
            // keys after the migration, so the users' references survive the rename).
            try db.create(table: "app_new") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("api_key", .text).notNull().unique()
                t.column("profile", .text).notNull().check { ["lslp", "slp", "quotehub"].contains($0) }
                t.column("refresh_with_access_token_only", .boolean).notNull().defaults(to: false)
                t.column("empty_auth_error_bodies", .boolean).notNull().defaults(to: false)
                t.column("socket_auth_optional", .boolean).notNull().defaults(to: false)
                t.column("created_at", .integer).notNull()
                t.column("apple_client_ids", .text).notNull().defaults(to: "")
                t.column("kakao_app_id", .text).notNull().defaults(to: "")
                t.column("mount", .text)
            }
            try db.execute(
                sql: """
                    INSERT INTO app_new (id, name, api_key, profile, refresh_with_access_token_only, empty_auth_error_bodies, socket_auth_optional,
                                         created_at, apple_client_ids, kakao_app_id)
                    SELECT id, name, api_key, profile, refresh_with_access_token_only, empty_auth_error_bodies, socket_auth_optional,
                           created_at, apple_client_ids, kakao_app_id FROM app
                    """)
            try db.drop(table: "app")
            try db.rename(table: "app_new", to: "app")
            try db.create(index: "app_by_mount", on: "app", columns: ["mount"], unique: true, condition: Column("mount") != nil)
        }
        migrator.registerMigration("v5-apple-code-sign-in") { db in
            // Sign in with Apple by authorization code (API.md §9): the app's key to sign client
            // secrets with, and each user's Apple refresh token (sealed) to revoke it later.
            try db.alter(table: "app") { t in
                t.add(column: "apple_team_id", .text).notNull().defaults(to: "")
                t.add(column: "apple_key_id", .text).notNull().defaults(to: "")
                t.add(column: "apple_private_key", .text).notNull().defaults(to: "")
            }
            try db.create(table: "apple_grant") { t in
                t.primaryKey("user_id", .text).references("user", onDelete: .cascade)
                t.column("app_id", .text).notNull()
                t.column("sealed_refresh_token", .blob).notNull()
                t.column("updated_at", .integer).notNull()
            }
        }
        migrator.registerMigration("v6-refresh-generations") { db in
            // Refresh tokens name their session and generation (RefreshTokenCodec): the session
            // row keeps the current one. Legacy tokens stay in `refresh_token` until they expire;
            // a session that has one live starts with its expiry.
            try db.alter(table: "session") { t in
                t.add(column: "refresh_generation", .integer).notNull().defaults(to: 0)
                t.add(column: "refresh_expires_at", .integer).notNull().defaults(to: 0)
                t.add(column: "refresh_rotated_at", .integer)
            }
            try db.execute(
                sql: """
                    UPDATE session SET refresh_expires_at = coalesce(
                        (SELECT max(expires_at) FROM refresh_token WHERE session_id = session.id AND rotated_at IS NULL), 0)
                    """)
        }
        migrator.registerMigration("v7-identities-by-user") { db in
            // Deleting a user cascades to its identities: found by index, as on PostgreSQL.
            try db.create(index: "social_identity_user", on: "social_identity", columns: ["user_id"])
        }
        migrator.registerMigration("v8-bans") { db in
            // Operators' bans (admin-svc) and the revision every change moves, which each process
            // long-polls for to refuse a banned user's tokens.
            try db.create(table: "ban") { t in
                t.primaryKey("user_id", .text).references("user", onDelete: .cascade)
                t.column("app_id", .text).notNull()
                t.column("reason", .text).notNull()
                t.column("banned_until", .integer)
                t.column("operator_id", .text).notNull()
                t.column("created_at", .integer).notNull()
            }
            try db.create(table: "ban_revision") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("revision", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO ban_revision (id, revision) VALUES (1, 0)")
        }
        migrator.registerMigration("v9-report-queue") { db in
            // Operators close reports with the action they took; the queue reads an app's open ones in order.
            try db.alter(table: "report") { t in
                t.add(column: "closed_at", .integer)
                t.add(column: "action", .text)
                t.add(column: "closed_by", .text)
            }
            try db.create(index: "report_queue", on: "report", columns: ["app_id", "created_at"])
        }
        migrator.registerMigration("v10-token-cutoffs") { db in
            // An operator's sign-out everywhere: the user's tokens issued before it are refused by
            // every process (with the bans, in the same revision's snapshot).
            try db.create(table: "token_cutoff") { t in
                t.primaryKey("user_id", .text).references("user", onDelete: .cascade)
                t.column("app_id", .text).notNull()
                t.column("before_at", .integer).notNull()
            }
        }
        migrator.registerMigration("v11-app-keys") { db in
            // Operators rotate a key (the old one accepted until its grace ends) and disable apps.
            try db.alter(table: "app") { t in
                t.add(column: "previous_api_key", .text)
                t.add(column: "previous_key_expires_at", .integer)
                t.add(column: "disabled_at", .integer)
            }
            try db.create(index: "app_by_previous_key", on: "app", columns: ["previous_api_key"])
            // An app's change moves the revocations' revision too: every gateway's long poll
            // wakes, sees `apps_revision` moved, and forgets the keys it had resolved.
            try db.alter(table: "ban_revision") { t in t.add(column: "apps_revision", .integer).notNull().defaults(to: 0) }
        }
        migrator.registerMigration("v12-activity") { db in
            // The operators' overview counts accounts and sessions per app and day.
            try db.create(index: "user_by_app_time", on: "user", columns: ["app_id", "created_at"])
            try db.create(index: "session_by_app_time", on: "session", columns: ["app_id", "created_at"])
            try db.create(index: "session_by_app_refresh", on: "session", columns: ["app_id", "refresh_rotated_at"])
        }
        return migrator
    }
}
