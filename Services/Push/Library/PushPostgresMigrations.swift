import PostgresStorage
import ServiceKit

/// push-svc's schema on PostgreSQL: the SQLite file's tables (`PushMigrations`). Append-only.
enum PushPostgresMigrations {
    static let all = [
        PostgresMigration(
            "v1-push",
            [
                // A device belongs to one user at a time: registering its token again moves it.
                """
                CREATE TABLE device (
                    token text PRIMARY KEY, app_id text NOT NULL, user_id text NOT NULL, session_id text NOT NULL, platform text NOT NULL,
                    updated_at bigint NOT NULL)
                """,
                "CREATE INDEX device_by_user ON device (app_id, user_id)",
                // Every notification is stored before delivery; `key` makes producers' retries idempotent.
                """
                CREATE TABLE notification (
                    id text PRIMARY KEY, app_id text NOT NULL, key text NOT NULL UNIQUE, title text NOT NULL, body text NOT NULL, data text NOT NULL,
                    created_at bigint NOT NULL)
                """,
                // One row per device (or FCM topic) to reach: the delivery outbox.
                """
                CREATE TABLE delivery (
                    id bigserial PRIMARY KEY, notification_id text NOT NULL, target text NOT NULL, platform text NOT NULL, state text NOT NULL,
                    attempts integer NOT NULL DEFAULT 0, next_attempt_at bigint NOT NULL, last_error text, finished_at bigint)
                """,
                "CREATE INDEX delivery_due ON delivery (next_attempt_at, id) WHERE state IN ('pending', 'sending')",
            ]),
        PostgresMigration(
            "v2-delivery-stats",
            [
                "CREATE INDEX notification_by_app ON notification (app_id, created_at)",
                "CREATE INDEX delivery_by_notification ON delivery (notification_id)",
            ]),
    ]
}
