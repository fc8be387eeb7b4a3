import Outbox
import PostgresStorage
import ServiceKit

/// payment-verify-svc's schema on PostgreSQL: the SQLite file's tables after its migrations
/// (`PaymentMigrations`). Append-only, like them.
enum PaymentPostgresMigrations {
    static let all = [
        PostgresMigration(
            "v1-payments",
            [
                """
                CREATE TABLE payment (
                    id text PRIMARY KEY, imp_uid text NOT NULL UNIQUE, kind text NOT NULL, app_id text NOT NULL, user_id text NOT NULL,
                    merchant_uid text NOT NULL, filter_id text NOT NULL, amount bigint NOT NULL, coins bigint NOT NULL, product_name text NOT NULL,
                    receipt text NOT NULL, paid_at bigint NOT NULL, created_at bigint NOT NULL, updated_at bigint NOT NULL, refunded_at bigint,
                    seq bigint GENERATED ALWAYS AS IDENTITY)
                """,
                // One payment per order, whatever races between validation, webhooks and replicas.
                "CREATE UNIQUE INDEX payment_order ON payment (merchant_uid) WHERE kind = 'order'",
                "CREATE INDEX payment_by_user ON payment (app_id, user_id, created_at)",
                """
                CREATE TABLE payment_attempt (
                    id bigserial PRIMARY KEY, source text NOT NULL, imp_uid text NOT NULL, merchant_uid text NOT NULL, app_id text NOT NULL,
                    user_id text NOT NULL, reason text NOT NULL, cancelled boolean NOT NULL, created_at bigint NOT NULL)
                """,
                "CREATE INDEX payment_attempt_by_payment ON payment_attempt (imp_uid)",
            ] + PostgresOutboxStore.createTable)
    ]
}
