import GRDB
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
            try db.execute(sql: """
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
            try db.execute(sql: """
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
        return migrator
    }
}
