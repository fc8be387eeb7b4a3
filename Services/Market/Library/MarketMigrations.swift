import GRDB
import Moderation
import Outbox
import ServiceKit

/// market-svc's schema. Migrations are append-only: never edit one that has landed.
enum MarketMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-posts") { db in
            try db.create(table: "post") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("creator_id", .text).notNull()
                t.column("product_id", .text)
                t.column("category", .text).notNull()
                t.column("title", .text).notNull()
                t.column("price", .integer).notNull().defaults(to: 0)
                t.column("content", .text).notNull()
                for column in ["content1", "content2", "content3", "content4", "content5"] {
                    t.column(column, .text).notNull().defaults(to: "")
                }
                t.column("files", .text).notNull().defaults(to: "[]")
                t.column("hash_tags", .text).notNull().defaults(to: "[]")
                t.column("longitude", .double)
                t.column("latitude", .double)
                t.column("is_public", .boolean).notNull().defaults(to: true)
                t.column("created_at", .integer).notNull()
                t.column("updated_at", .integer).notNull()
            }
            // Feeds walk newest first within an app; SQLite appends the rowid to every index, and
            // the rowid (insertion order) breaks ties of the same millisecond.
            try db.create(index: "post_feed", on: "post", columns: ["app_id", "created_at"])
            try db.create(index: "post_creator", on: "post", columns: ["creator_id", "created_at"])
        }
        migrator.registerMigration("v2-likes-comments") { db in
            try db.create(table: "post_like") { t in
                t.column("post_id", .text).notNull().references("post", onDelete: .cascade)
                t.column("user_id", .text).notNull()
                t.column("kind", .integer).notNull()
                t.column("created_at", .integer).notNull()
                t.primaryKey(["post_id", "user_id", "kind"])
            }
            try db.create(index: "post_like_user", on: "post_like", columns: ["user_id", "kind", "created_at"])
            try db.create(table: "comment") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("target_type", .text).notNull()
                t.column("target_id", .text).notNull()
                t.column("parent_id", .text).references("comment", onDelete: .cascade)
                t.column("creator_id", .text).notNull()
                t.column("content", .text).notNull()
                t.column("created_at", .integer).notNull()
                t.column("updated_at", .integer).notNull()
            }
            try db.create(index: "comment_target", on: "comment", columns: ["target_type", "target_id", "created_at"])
        }
        migrator.registerMigration("v3-filters-orders") { db in
            try db.create(table: "filter") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("creator_id", .text).notNull()
                t.column("category", .text).notNull()
                t.column("title", .text).notNull()
                t.column("description", .text).notNull()
                t.column("price", .integer).notNull()
                t.column("files", .text).notNull()
                t.column("photo_metadata", .text)
                t.column("filter_values", .text).notNull()
                t.column("created_at", .integer).notNull()
                t.column("updated_at", .integer).notNull()
            }
            try db.create(index: "filter_feed", on: "filter", columns: ["app_id", "created_at"])
            try db.create(index: "filter_creator", on: "filter", columns: ["creator_id", "created_at"])
            try db.create(table: "filter_like") { t in
                t.column("filter_id", .text).notNull().references("filter", onDelete: .cascade)
                t.column("user_id", .text).notNull()
                t.column("created_at", .integer).notNull()
                t.primaryKey(["filter_id", "user_id"])
            }
            try db.create(index: "filter_like_user", on: "filter_like", columns: ["user_id", "created_at"])
            try db.create(table: "purchase_order") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("order_code", .text).notNull().unique()
                t.column("buyer_id", .text).notNull()
                t.column("filter_id", .text).notNull().references("filter", onDelete: .restrict)
                t.column("total_price", .integer).notNull()
                t.column("paid_at", .integer)
                t.column("created_at", .integer).notNull()
                t.column("updated_at", .integer).notNull()
            }
            try db.create(index: "order_buyer", on: "purchase_order", columns: ["buyer_id", "filter_id"])
        }
        migrator.registerMigration("v4-outbox") { db in
            try SQLiteOutboxStore.createTable(db)
        }
        migrator.registerMigration("v5-wallets") { db in
            // Coins per user and app; each PortOne payment adds to a wallet at most once.
            try db.create(table: "wallet") { t in
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("coins", .integer).notNull().defaults(to: 0)
                t.column("updated_at", .integer).notNull()
                t.primaryKey(["app_id", "user_id"])
            }
            try db.create(table: "coin_grant") { t in
                t.primaryKey("imp_uid", .text)
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("coins", .integer).notNull()
                t.column("created_at", .integer).notNull()
            }
        }
        migrator.registerMigration("v6-refunds") { db in
            // A coin grant taken back (its payment refunded), and how much could be taken.
            try db.alter(table: "coin_grant") { t in
                t.add(column: "refunded_at", .integer)
                t.add(column: "debited", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v7-coin-spends") { db in
            // What coins bought (a workspace), by the buyer service's key: `returned_at` set when
            // given back, or when the buyer gave the purchase up before spending (coins 0), so a
            // late spend with that key is refused.
            try db.create(table: "coin_spend") { t in
                t.primaryKey("key", .text)
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("coins", .integer).notNull()
                t.column("created_at", .integer).notNull()
                t.column("returned_at", .integer)
            }
        }
        migrator.registerMigration("v8-book-stories") { db in
            // API.md §9. Books as Kakao answered them, one row per first ISBN and app.
            try db.create(table: "book") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("isbn_key", .text).notNull()
                t.column("title", .text).notNull()
                t.column("authors", .text).notNull()
                t.column("translators", .text).notNull()
                t.column("introduction", .text).notNull()
                t.column("publisher", .text).notNull()
                t.column("publication_date", .text).notNull()
                t.column("image_url", .text).notNull()
                t.column("link", .text).notNull()
                t.column("isbns", .text).notNull()
                t.column("updated_at", .integer).notNull()
                t.uniqueKey(["app_id", "isbn_key"])
            }
            // `search_text`: keywords, quotes and content lowercased, what keyword search reads.
            try db.create(table: "story") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("book_id", .text).notNull().references("book", onDelete: .restrict)
                t.column("quotes", .text).notNull()
                t.column("content", .text)
                t.column("images", .text).notNull()
                t.column("is_public", .boolean).notNull()
                t.column("keywords", .text).notNull()
                t.column("search_text", .text).notNull()
                t.column("created_at", .integer).notNull()
                t.column("updated_at", .integer).notNull()
            }
            try db.create(index: "story_public", on: "story", columns: ["app_id", "is_public", "created_at"])
            try db.create(index: "story_user", on: "story", columns: ["user_id", "created_at"])
            try db.create(table: "theme") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("name", .text).notNull()
                t.column("description", .text)
                t.column("image", .text)
                t.column("is_public", .boolean).notNull()
                t.column("created_at", .integer).notNull()
                t.column("updated_at", .integer).notNull()
            }
            try db.create(index: "theme_public", on: "theme", columns: ["app_id", "is_public", "created_at"])
            try db.create(index: "theme_user", on: "theme", columns: ["user_id", "created_at"])
            // A story in a theme; `position` keeps `folderIds` in the order the author gave.
            try db.create(table: "story_theme") { t in
                t.column("story_id", .text).notNull().references("story", onDelete: .cascade)
                t.column("theme_id", .text).notNull().references("theme", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("created_at", .integer).notNull()
                t.primaryKey(["story_id", "theme_id"])
            }
            try db.create(index: "story_theme_by_theme", on: "story_theme", columns: ["theme_id", "created_at"])
            // Comments on stories live in `comment` (target_type `bookstory`); replies by parent.
            try db.create(index: "comment_parent", on: "comment", columns: ["parent_id", "created_at"])
            try db.create(index: "comment_creator", on: "comment", columns: ["creator_id"])
        }
        migrator.registerMigration("v9-story-counts") { db in
            // Each author's stories (public and all) and each app's (user_id ''), kept by triggers
            // in the writing transaction: a page's exact total without counting 100,000 rows.
            try db.execute(
                sql: """
                    CREATE TABLE story_count (
                        app_id TEXT NOT NULL, user_id TEXT NOT NULL, public INTEGER NOT NULL, total INTEGER NOT NULL, PRIMARY KEY (app_id, user_id)
                    ) WITHOUT ROWID;
                    INSERT INTO story_count SELECT app_id, user_id, SUM(is_public), COUNT(*) FROM story GROUP BY app_id, user_id;
                    INSERT INTO story_count SELECT app_id, '', SUM(is_public), COUNT(*) FROM story GROUP BY app_id;
                    CREATE TRIGGER story_counted AFTER INSERT ON story BEGIN
                        INSERT INTO story_count (app_id, user_id, public, total) VALUES (NEW.app_id, NEW.user_id, NEW.is_public, 1), (NEW.app_id, '', NEW.is_public, 1)
                        ON CONFLICT (app_id, user_id) DO UPDATE SET public = public + excluded.public, total = total + 1;
                    END;
                    CREATE TRIGGER story_uncounted AFTER DELETE ON story BEGIN
                        UPDATE story_count SET public = public - OLD.is_public, total = total - 1 WHERE app_id = OLD.app_id AND user_id IN (OLD.user_id, '');
                    END;
                    CREATE TRIGGER story_recounted AFTER UPDATE OF is_public ON story WHEN OLD.is_public != NEW.is_public BEGIN
                        UPDATE story_count SET public = public + NEW.is_public - OLD.is_public WHERE app_id = NEW.app_id AND user_id IN (NEW.user_id, '');
                    END;
                    """)
        }
        migrator.registerMigration("v10-orders-by-filter") { db in
            // A filter's orders (its removal checks them), found by index, as on PostgreSQL.
            try db.create(index: "order_filter", on: "purchase_order", columns: ["filter_id"])
        }
        migrator.registerMigration("v11-hidden-content") { db in
            // Posts and stories operators hid (admin-svc): kept, left out of every read.
            try db.execute(sql: HiddenContentSchema.sqlite)
            try db.execute(sql: HiddenContentSchema.sqliteIndex)
        }
        migrator.registerMigration("v12-story-activity") { db in
            // The operators' overview counts an app's stories per day.
            try db.create(index: "story_by_app_time", on: "story", columns: ["app_id", "created_at"])
        }
        migrator.registerMigration("v13-story-search") { db in
            // A keyword search counts an app's public stories whose text holds the keyword: from
            // this index, `instr` reads each entry and only a match reaches the table (PostgreSQL
            // scans the table in parallel instead: its B-tree entries cannot hold a story's text).
            try db.create(index: "story_search", on: "story", columns: ["app_id", "is_public", "search_text"])
        }
        return migrator
    }
}
