import Outbox
import PostgresStorage
import ServiceKit

/// auth-svc's schema on PostgreSQL: the SQLite file's tables as they stand after its migrations
/// (`AuthMigrations`), less what only an old file needs (legacy refresh tokens). `user` is a
/// reserved word here: the table is `app_user`. Append-only, like the SQLite migrations.
enum AuthPostgresMigrations {
    static let all = [
        PostgresMigration(
            "v1-auth",
            [
                """
                CREATE TABLE app (
                    id text PRIMARY KEY, name text NOT NULL, api_key text NOT NULL UNIQUE,
                    profile text NOT NULL CHECK (profile IN ('lslp', 'slp', 'quotehub')),
                    refresh_with_access_token_only boolean NOT NULL DEFAULT false, empty_auth_error_bodies boolean NOT NULL DEFAULT false,
                    socket_auth_optional boolean NOT NULL DEFAULT false, created_at bigint NOT NULL,
                    apple_client_ids text NOT NULL DEFAULT '', kakao_app_id text NOT NULL DEFAULT '', mount text UNIQUE,
                    apple_team_id text NOT NULL DEFAULT '', apple_key_id text NOT NULL DEFAULT '', apple_private_key text NOT NULL DEFAULT '')
                """,
                """
                CREATE TABLE app_user (
                    id text PRIMARY KEY, app_id text NOT NULL REFERENCES app ON DELETE CASCADE,
                    email text NOT NULL, email_key text NOT NULL, password_hash text, nick text NOT NULL, nick_key text NOT NULL,
                    phone_num text NOT NULL DEFAULT '', birth_day text NOT NULL DEFAULT '', gender text NOT NULL DEFAULT '',
                    info1 text NOT NULL DEFAULT '', info2 text NOT NULL DEFAULT '', info3 text NOT NULL DEFAULT '',
                    info4 text NOT NULL DEFAULT '', info5 text NOT NULL DEFAULT '', name text NOT NULL DEFAULT '',
                    introduction text NOT NULL DEFAULT '', description text NOT NULL DEFAULT '', hash_tags text NOT NULL DEFAULT '[]',
                    profile_image text, created_at bigint NOT NULL, updated_at bigint NOT NULL)
                """,
                "CREATE UNIQUE INDEX user_email ON app_user (app_id, email_key) WHERE email_key <> ''",
                "CREATE INDEX user_nick ON app_user (app_id, nick_key)",
                """
                CREATE TABLE social_identity (
                    app_id text NOT NULL, provider text NOT NULL, subject text NOT NULL,
                    user_id text NOT NULL REFERENCES app_user ON DELETE CASCADE, PRIMARY KEY (app_id, provider, subject))
                """,
                "CREATE INDEX social_identity_user ON social_identity (user_id)",
                """
                CREATE TABLE session (
                    id text PRIMARY KEY, app_id text NOT NULL, user_id text NOT NULL REFERENCES app_user ON DELETE CASCADE,
                    device_token text, created_at bigint NOT NULL, revoked_at bigint, revoke_reason text,
                    refresh_generation bigint NOT NULL, refresh_expires_at bigint NOT NULL, refresh_rotated_at bigint)
                """,
                "CREATE INDEX session_by_user ON session (user_id)",
                """
                CREATE TABLE follow (
                    follower_id text NOT NULL REFERENCES app_user ON DELETE CASCADE, following_id text NOT NULL REFERENCES app_user ON DELETE CASCADE,
                    created_at bigint NOT NULL, PRIMARY KEY (follower_id, following_id))
                """,
                "CREATE INDEX follow_following ON follow (following_id)",
                """
                CREATE TABLE block (
                    blocker_id text NOT NULL REFERENCES app_user ON DELETE CASCADE, blocked_id text NOT NULL REFERENCES app_user ON DELETE CASCADE,
                    created_at bigint NOT NULL, PRIMARY KEY (blocker_id, blocked_id))
                """,
                "CREATE INDEX block_blocked ON block (blocked_id)",
                """
                CREATE TABLE report (
                    id text PRIMARY KEY, app_id text NOT NULL, reporter_id text NOT NULL REFERENCES app_user ON DELETE CASCADE,
                    target_type text NOT NULL, target_id text NOT NULL, reason text NOT NULL, created_at bigint NOT NULL,
                    UNIQUE (reporter_id, target_type, target_id))
                """,
                """
                CREATE TABLE attendance (
                    user_id text NOT NULL REFERENCES app_user ON DELETE CASCADE, day text NOT NULL, created_at bigint NOT NULL, PRIMARY KEY (user_id, day))
                """,
                """
                CREATE TABLE apple_grant (
                    user_id text PRIMARY KEY REFERENCES app_user ON DELETE CASCADE, app_id text NOT NULL,
                    sealed_refresh_token bytea NOT NULL, updated_at bigint NOT NULL)
                """,
            ] + PostgresOutboxStore.createTable),
        PostgresMigration(
            "v2-bans",
            [
                """
                CREATE TABLE ban (
                    user_id text PRIMARY KEY REFERENCES app_user ON DELETE CASCADE, app_id text NOT NULL, reason text NOT NULL,
                    banned_until bigint, operator_id text NOT NULL, created_at bigint NOT NULL)
                """,
                "CREATE TABLE ban_revision (id integer PRIMARY KEY CHECK (id = 1), revision bigint NOT NULL)",
                "INSERT INTO ban_revision (id, revision) VALUES (1, 0)",
            ] + PostgresChangeCounter.triggers(channel: BanBoard.channel, tables: ["ban"])),
        PostgresMigration(
            "v3-report-queue",
            [
                "ALTER TABLE report ADD COLUMN closed_at bigint, ADD COLUMN action text, ADD COLUMN closed_by text",
                "CREATE INDEX report_queue ON report (app_id, created_at)",
            ]),
        PostgresMigration(
            "v4-token-cutoffs",
            [
                """
                CREATE TABLE token_cutoff (
                    user_id text PRIMARY KEY REFERENCES app_user ON DELETE CASCADE, app_id text NOT NULL, before_at bigint NOT NULL)
                """,
                // The notifying function exists since v2-bans: only the table's trigger is new.
                "CREATE TRIGGER token_cutoff_notifies AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON token_cutoff FOR EACH STATEMENT EXECUTE FUNCTION notify_\(BanBoard.channel)()",
            ]),
        PostgresMigration(
            "v5-app-keys",
            [
                "ALTER TABLE app ADD COLUMN previous_api_key text, ADD COLUMN previous_key_expires_at bigint, ADD COLUMN disabled_at bigint",
                "CREATE INDEX app_by_previous_key ON app (previous_api_key)",
                "ALTER TABLE ban_revision ADD COLUMN apps_revision bigint NOT NULL DEFAULT 0",
                // Every replica's long polls wake on an app's change as on a ban.
                "CREATE TRIGGER app_notifies AFTER UPDATE ON app FOR EACH STATEMENT EXECUTE FUNCTION notify_\(BanBoard.channel)()",
            ]),
        PostgresMigration(
            "v6-activity",
            [
                "CREATE INDEX user_by_app_time ON app_user (app_id, created_at)",
                "CREATE INDEX session_by_app_time ON session (app_id, created_at)",
                "CREATE INDEX session_by_app_refresh ON session (app_id, refresh_rotated_at)",
            ]),
    ]
}
