import PostgresStorage

/// admin-svc's schema on PostgreSQL: the SQLite file's tables as they stand after its migrations
/// (`AdminMigrations`). Append-only, like them.
enum AdminPostgresMigrations {
    static let all = [
        PostgresMigration(
            "v1-admin",
            [
                """
                CREATE TABLE admin_operator (
                    id text PRIMARY KEY, email text NOT NULL UNIQUE, password_hash text NOT NULL, totp_secret text NOT NULL,
                    role text NOT NULL CHECK (role IN ('owner', 'admin', 'moderator')), apps text NOT NULL DEFAULT '[]',
                    last_totp_step bigint NOT NULL DEFAULT 0, created_at bigint NOT NULL)
                """,
                """
                CREATE TABLE admin_session (
                    token_hash text PRIMARY KEY, operator_id text NOT NULL REFERENCES admin_operator ON DELETE CASCADE, csrf_token text NOT NULL,
                    address text NOT NULL, created_at bigint NOT NULL, last_seen_at bigint NOT NULL)
                """,
                "CREATE INDEX admin_session_by_operator ON admin_session (operator_id)",
                "CREATE TABLE sign_in_failure (id bigserial PRIMARY KEY, key text NOT NULL, at bigint NOT NULL)",
                "CREATE INDEX sign_in_failure_by_key ON sign_in_failure (key, at)",
                """
                CREATE TABLE audit_entry (
                    id text PRIMARY KEY, at bigint NOT NULL, operator_id text NOT NULL, operator_email text NOT NULL, address text NOT NULL,
                    action text NOT NULL, app_id text, target_kind text, target_id text, before text, after text, request_id text NOT NULL)
                """,
                "CREATE INDEX audit_entry_by_time ON audit_entry (at)",
                "CREATE INDEX audit_entry_by_app ON audit_entry (app_id, at)",
                """
                CREATE FUNCTION audit_entry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$
                """,
                "CREATE TRIGGER audit_entry_no_change BEFORE UPDATE OR DELETE ON audit_entry FOR EACH ROW EXECUTE FUNCTION audit_entry_append_only()",
            ]),
        PostgresMigration("v2-password-changed", ["ALTER TABLE admin_operator ADD COLUMN password_changed_at bigint"]),
    ]
}
