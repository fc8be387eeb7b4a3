import Moderation
import Outbox
import PostgresStorage
import ServiceKit

/// market-svc's schema on PostgreSQL: the SQLite file's tables as they stand after its
/// migrations (`MarketMigrations`), a `seq` where SQLite's rowid orders rows of one millisecond,
/// and notifications that empty every replica's post cache. Append-only, like the SQLite migrations.
enum MarketPostgresMigrations {
    /// Where a commit changing posts, likes or comments is announced (`PostgresChangeCounter`).
    static let postChanges = "glint_market_posts"
    /// auth-svc's changes of users, announced by the replica it told (no table: `ChangeSignal`).
    static let usersChanged = "glint_market_users"

    static let all = [
        PostgresMigration(
            "v1-market",
            [
                """
                CREATE TABLE post (
                    id text PRIMARY KEY, seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE, app_id text NOT NULL, creator_id text NOT NULL,
                    product_id text, category text NOT NULL, title text NOT NULL, price bigint NOT NULL DEFAULT 0, content text NOT NULL,
                    content1 text NOT NULL DEFAULT '', content2 text NOT NULL DEFAULT '', content3 text NOT NULL DEFAULT '',
                    content4 text NOT NULL DEFAULT '', content5 text NOT NULL DEFAULT '', files text NOT NULL DEFAULT '[]',
                    hash_tags text NOT NULL DEFAULT '[]', longitude double precision, latitude double precision,
                    is_public boolean NOT NULL DEFAULT true, created_at bigint NOT NULL, updated_at bigint NOT NULL)
                """,
                "CREATE INDEX post_feed ON post (app_id, created_at DESC, seq DESC)",
                "CREATE INDEX post_creator ON post (creator_id, created_at DESC, seq DESC)",
                """
                CREATE TABLE post_like (
                    post_id text NOT NULL REFERENCES post ON DELETE CASCADE, user_id text NOT NULL, kind bigint NOT NULL,
                    created_at bigint NOT NULL, PRIMARY KEY (post_id, user_id, kind))
                """,
                "CREATE INDEX post_like_user ON post_like (user_id, kind, created_at)",
                """
                CREATE TABLE comment (
                    id text PRIMARY KEY, seq bigint GENERATED ALWAYS AS IDENTITY, app_id text NOT NULL, target_type text NOT NULL,
                    target_id text NOT NULL, parent_id text REFERENCES comment ON DELETE CASCADE, creator_id text NOT NULL,
                    content text NOT NULL, created_at bigint NOT NULL, updated_at bigint NOT NULL)
                """,
                "CREATE INDEX comment_target ON comment (target_type, target_id, created_at)",
                "CREATE INDEX comment_parent ON comment (parent_id, created_at)",
                "CREATE INDEX comment_creator ON comment (creator_id)",
                """
                CREATE TABLE filter (
                    id text PRIMARY KEY, seq bigint GENERATED ALWAYS AS IDENTITY, app_id text NOT NULL, creator_id text NOT NULL,
                    category text NOT NULL, title text NOT NULL, description text NOT NULL, price bigint NOT NULL, files text NOT NULL,
                    photo_metadata text, filter_values text NOT NULL, created_at bigint NOT NULL, updated_at bigint NOT NULL)
                """,
                "CREATE INDEX filter_feed ON filter (app_id, created_at DESC, seq DESC)",
                "CREATE INDEX filter_creator ON filter (creator_id, created_at)",
                """
                CREATE TABLE filter_like (
                    filter_id text NOT NULL REFERENCES filter ON DELETE CASCADE, user_id text NOT NULL, created_at bigint NOT NULL,
                    PRIMARY KEY (filter_id, user_id))
                """,
                "CREATE INDEX filter_like_user ON filter_like (user_id, created_at)",
                """
                CREATE TABLE purchase_order (
                    id text PRIMARY KEY, app_id text NOT NULL, order_code text NOT NULL UNIQUE, buyer_id text NOT NULL,
                    filter_id text NOT NULL REFERENCES filter ON DELETE RESTRICT, total_price bigint NOT NULL, paid_at bigint,
                    created_at bigint NOT NULL, updated_at bigint NOT NULL)
                """,
                "CREATE INDEX order_buyer ON purchase_order (buyer_id, filter_id)",
                "CREATE INDEX order_filter ON purchase_order (filter_id)",
                // Coins per user and app; each PortOne payment adds to a wallet at most once, and may be
                // taken back (refunded) once; what coins bought, by the buyer service's key.
                """
                CREATE TABLE wallet (
                    app_id text NOT NULL, user_id text NOT NULL, coins bigint NOT NULL DEFAULT 0, updated_at bigint NOT NULL,
                    PRIMARY KEY (app_id, user_id))
                """,
                """
                CREATE TABLE coin_grant (
                    imp_uid text PRIMARY KEY, app_id text NOT NULL, user_id text NOT NULL, coins bigint NOT NULL, created_at bigint NOT NULL,
                    refunded_at bigint, debited bigint NOT NULL DEFAULT 0)
                """,
                """
                CREATE TABLE coin_spend (
                    key text PRIMARY KEY, app_id text NOT NULL, user_id text NOT NULL, coins bigint NOT NULL, created_at bigint NOT NULL,
                    returned_at bigint)
                """,
                // API.md §9.
                """
                CREATE TABLE book (
                    id text PRIMARY KEY, seq bigint GENERATED ALWAYS AS IDENTITY, app_id text NOT NULL, isbn_key text NOT NULL,
                    title text NOT NULL, authors text NOT NULL, translators text NOT NULL, introduction text NOT NULL, publisher text NOT NULL,
                    publication_date text NOT NULL, image_url text NOT NULL, link text NOT NULL, isbns text NOT NULL, updated_at bigint NOT NULL,
                    UNIQUE (app_id, isbn_key))
                """,
                """
                CREATE TABLE story (
                    id text PRIMARY KEY, seq bigint GENERATED ALWAYS AS IDENTITY, app_id text NOT NULL, user_id text NOT NULL,
                    book_id text NOT NULL REFERENCES book ON DELETE RESTRICT, quotes text NOT NULL, content text, images text NOT NULL,
                    is_public boolean NOT NULL, keywords text NOT NULL, search_text text NOT NULL, created_at bigint NOT NULL,
                    updated_at bigint NOT NULL)
                """,
                "CREATE INDEX story_public ON story (app_id, is_public, created_at DESC, seq DESC)",
                "CREATE INDEX story_user ON story (user_id, created_at DESC, seq DESC)",
                """
                CREATE TABLE theme (
                    id text PRIMARY KEY, seq bigint GENERATED ALWAYS AS IDENTITY, app_id text NOT NULL, user_id text NOT NULL,
                    name text NOT NULL, description text, image text, is_public boolean NOT NULL, created_at bigint NOT NULL,
                    updated_at bigint NOT NULL)
                """,
                "CREATE INDEX theme_public ON theme (app_id, is_public, created_at DESC, seq DESC)",
                "CREATE INDEX theme_user ON theme (user_id, created_at DESC, seq DESC)",
                """
                CREATE TABLE story_theme (
                    story_id text NOT NULL REFERENCES story ON DELETE CASCADE, theme_id text NOT NULL REFERENCES theme ON DELETE CASCADE,
                    position bigint NOT NULL, created_at bigint NOT NULL, PRIMARY KEY (story_id, theme_id))
                """,
                "CREATE INDEX story_theme_by_theme ON story_theme (theme_id, created_at)",
                // Each author's stories (public and all) and each app's (user_id ''), kept by a trigger
                // in the writing transaction: a page's exact total without counting 100,000 rows.
                """
                CREATE TABLE story_count (
                    app_id text NOT NULL, user_id text NOT NULL, public bigint NOT NULL, total bigint NOT NULL, PRIMARY KEY (app_id, user_id))
                """,
                """
                CREATE FUNCTION story_counted() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        INSERT INTO story_count (app_id, user_id, public, total)
                        VALUES (NEW.app_id, NEW.user_id, NEW.is_public::int, 1), (NEW.app_id, '', NEW.is_public::int, 1)
                        ON CONFLICT (app_id, user_id) DO UPDATE SET public = story_count.public + excluded.public, total = story_count.total + 1;
                    ELSIF TG_OP = 'DELETE' THEN
                        UPDATE story_count SET public = public - OLD.is_public::int, total = total - 1
                        WHERE app_id = OLD.app_id AND user_id IN (OLD.user_id, '');
                    ELSIF OLD.is_public <> NEW.is_public THEN
                        UPDATE story_count SET public = public + NEW.is_public::int - OLD.is_public::int
                        WHERE app_id = NEW.app_id AND user_id IN (NEW.user_id, '');
                    END IF;
                    RETURN NULL;
                END $$
                """,
                "CREATE TRIGGER story_counted AFTER INSERT OR DELETE OR UPDATE OF is_public ON story FOR EACH ROW EXECUTE FUNCTION story_counted()",
            ] + PostgresOutboxStore.createTable + PostgresChangeCounter.triggers(channel: postChanges, tables: ["post", "post_like", "comment"])),
        PostgresMigration(
            "v2-hidden-content",
            [HiddenContentSchema.postgres, HiddenContentSchema.postgresIndex]
                + PostgresChangeCounter.triggers(channel: HiddenContentSchema.channel, tables: ["hidden_content"])),
        PostgresMigration(
            "v3-hidden-comments",
            [
                // A hidden comment must leave every replica's kept post answers: hidden_content
                // tells the post cache's channel too (its function exists since v1).
                """
                CREATE TRIGGER hidden_content_notifies_posts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON hidden_content
                FOR EACH STATEMENT EXECUTE FUNCTION notify_\(postChanges)()
                """
            ]),
        PostgresMigration("v4-story-activity", ["CREATE INDEX story_by_app_time ON story (app_id, created_at)"]),
        PostgresMigration(
            "v5-story-search",
            [
                // A story search's matches found by trigram (any substring of three characters
                // or more, Korean included), per app as btree_gin puts app_id in the same index;
                // shorter keywords hold no trigram and the planner walks `story_public` as before.
                "CREATE EXTENSION IF NOT EXISTS pg_trgm",
                "CREATE EXTENSION IF NOT EXISTS btree_gin",
                "CREATE INDEX story_search ON story USING gin (app_id, search_text gin_trgm_ops)",
            ]),
    ]
}
