import GRDB
import Moderation
import Outbox
import ServiceKit

/// chat-svc's schema. Migrations are append-only: never edit one that has landed.
enum ChatMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-rooms-chats") { db in
            try db.create(table: "room") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                // The two participants' ids, sorted: one room per pair.
                t.column("pair_key", .text).notNull()
                t.column("created_at", .integer).notNull()
                // Room activity: creation, then each message's time (strictly increasing).
                t.column("updated_at", .integer).notNull()
                t.column("last_chat_seq", .integer)
                t.uniqueKey(["app_id", "pair_key"])
            }
            try db.create(table: "participant") { t in
                t.column("room_id", .text).notNull().references("room", onDelete: .cascade)
                t.column("user_id", .text).notNull()
                t.column("app_id", .text).notNull()
                // created_at of the newest message the user has read.
                t.column("read_at", .integer).notNull().defaults(to: 0)
                t.primaryKey(["room_id", "user_id"])
            }
            try db.create(index: "participant_by_user", on: "participant", columns: ["app_id", "user_id"])
            try db.create(table: "chat") { t in
                t.autoIncrementedPrimaryKey("seq")
                t.column("id", .text).notNull().unique()
                t.column("room_id", .text).notNull().references("room", onDelete: .cascade)
                t.column("sender_id", .text).notNull()
                t.column("content", .text).notNull()
                t.column("files", .text).notNull().defaults(to: "[]")
                t.column("client_id", .text)
                // Milliseconds, strictly increasing within a room, so `cursor_date` (strictly
                // after) never skips a message sent in the same millisecond.
                t.column("created_at", .integer).notNull()
            }
            try db.create(index: "chat_by_room", on: "chat", columns: ["room_id", "created_at"])
            try db.execute(
                sql: """
                    CREATE UNIQUE INDEX chat_client_id ON chat(room_id, sender_id, client_id) WHERE client_id IS NOT NULL;
                    CREATE VIRTUAL TABLE chat_fts USING fts5(content, content='chat', content_rowid='seq', tokenize='trigram');
                    CREATE TRIGGER chat_fts_insert AFTER INSERT ON chat BEGIN
                        INSERT INTO chat_fts(rowid, content) VALUES (new.seq, new.content);
                    END;
                    CREATE TRIGGER chat_fts_delete AFTER DELETE ON chat BEGIN
                        INSERT INTO chat_fts(chat_fts, rowid, content) VALUES ('delete', old.seq, old.content);
                    END;
                    """)
            try SQLiteOutboxStore.createTable(db)
        }
        migrator.registerMigration("v2-search-by-room") { db in
            // The index gets each message's room partition (`SearchPartition`), so a search reads
            // the room's part of the index, not every room's matches.
            try db.execute(
                sql: """
                    ALTER TABLE chat ADD COLUMN fts_room TEXT GENERATED ALWAYS AS (\(SearchPartition.sqlExpression)) VIRTUAL;
                    DROP TRIGGER chat_fts_insert;
                    DROP TRIGGER chat_fts_delete;
                    DROP TABLE chat_fts;
                    CREATE VIRTUAL TABLE chat_fts USING fts5(content, fts_room, content='chat', content_rowid='seq', tokenize='trigram');
                    CREATE TRIGGER chat_fts_insert AFTER INSERT ON chat BEGIN
                        INSERT INTO chat_fts(rowid, content, fts_room) VALUES (new.seq, new.content, new.fts_room);
                    END;
                    CREATE TRIGGER chat_fts_delete AFTER DELETE ON chat BEGIN
                        INSERT INTO chat_fts(chat_fts, rowid, content, fts_room) VALUES ('delete', old.seq, old.content, old.fts_room);
                    END;
                    INSERT INTO chat_fts(chat_fts) VALUES ('rebuild');
                    """)
        }
        migrator.registerMigration("v3-workspaces") { db in
            // Workspaces (API.md §8) beside the rooms: channels and DM rooms are rooms (one message
            // store, one index, one realtime path) of a workspace; its members are listed here.
            // A workspace is `pending` from the moment its name is taken until its coins are
            // spent (then `active`), so a purchase left half-way can be found and given back.
            try db.create(table: "workspace") { t in
                t.primaryKey("id", .text)
                t.column("app_id", .text).notNull()
                t.column("name", .text).notNull()
                t.column("description", .text)
                t.column("cover_image", .text).notNull()
                t.column("owner_id", .text).notNull()
                t.column("state", .text).notNull()
                t.column("created_at", .integer).notNull()
                t.uniqueKey(["app_id", "owner_id", "name"])
            }
            try db.create(index: "workspace_pending", on: "workspace", columns: ["created_at"], condition: Column("state") == "pending")
            try db.create(table: "workspace_member") { t in
                t.column("workspace_id", .text).notNull().references("workspace", onDelete: .cascade)
                t.column("user_id", .text).notNull()
                t.column("app_id", .text).notNull()
                t.column("joined_at", .integer).notNull()
                t.primaryKey(["workspace_id", "user_id"])
            }
            try db.create(index: "workspace_member_by_user", on: "workspace_member", columns: ["app_id", "user_id"])
            try db.alter(table: "room") { t in
                // `pair` (§3), `channel` or `dm` (§8).
                t.add(column: "kind", .text).notNull().defaults(to: "pair")
                t.add(column: "workspace_id", .text).references("workspace", onDelete: .cascade)
            }
            try db.create(index: "room_by_workspace", on: "room", columns: ["workspace_id", "kind"], condition: Column("workspace_id") != nil)
            try db.create(table: "channel") { t in
                t.primaryKey("room_id", .text).references("room", onDelete: .cascade)
                t.column("workspace_id", .text).notNull().references("workspace", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("description", .text)
                t.column("cover_image", .text)
                t.column("owner_id", .text).notNull()
                t.column("created_at", .integer).notNull()
                // `일반`, made with the workspace: it cannot be deleted or left, whatever its name becomes.
                t.column("is_default", .boolean).notNull().defaults(to: false)
                t.uniqueKey(["workspace_id", "name"])
            }
            // Unread counts (others' messages after a time) read this index alone, never the rows.
            try db.execute(
                sql: """
                    CREATE INDEX chat_by_room_time_sender ON chat(room_id, created_at, sender_id);
                    DROP INDEX chat_by_room;
                    """)
        }
        migrator.registerMigration("v4-hidden-content") { db in
            // Messages operators hid (admin-svc): kept, left out of every read.
            try db.execute(sql: HiddenContentSchema.sqlite)
            try db.execute(sql: HiddenContentSchema.sqliteIndex)
        }
        migrator.registerMigration("v5-message-activity") { db in
            // The operators' overview counts messages per day.
            try db.create(index: "chat_by_time", on: "chat", columns: ["created_at"])
        }
        migrator.registerMigration("v6-message-by-sender") { db in
            // Operators list a user's newest messages.
            try db.create(index: "chat_by_sender", on: "chat", columns: ["sender_id", "created_at"])
        }
        return migrator
    }
}
