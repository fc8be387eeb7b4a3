import Moderation
import Outbox
import PostgresStorage
import ServiceKit

/// chat-svc's schema on PostgreSQL: the SQLite file's tables as they stand after its migrations
/// (`ChatMigrations`), with PostgreSQL's own search index and the frames other replicas read.
/// Append-only, like the SQLite migrations.
enum ChatPostgresMigrations {
    /// auth-svc's changes of users, announced by the replica it told (no table: `ChangeSignal`).
    static let usersChanged = "glint_chat_users"

    static let all = [
        PostgresMigration(
            "v1-chat",
            [
                // Trigram search of any substring (Korean included: the database's ctype classes
                // Hangul as letters under C.UTF-8 or ko_KR.UTF-8), per room: btree_gin puts the
                // room id into the same index, as the SQLite index's room partition does.
                "CREATE EXTENSION IF NOT EXISTS pg_trgm",
                "CREATE EXTENSION IF NOT EXISTS btree_gin",
                """
                CREATE TABLE workspace (
                    id text PRIMARY KEY, app_id text NOT NULL, name text NOT NULL, description text, cover_image text NOT NULL,
                    owner_id text NOT NULL, state text NOT NULL, created_at bigint NOT NULL, UNIQUE (app_id, owner_id, name))
                """,
                "CREATE INDEX workspace_pending ON workspace (created_at) WHERE state = 'pending'",
                """
                CREATE TABLE workspace_member (
                    workspace_id text NOT NULL REFERENCES workspace ON DELETE CASCADE, user_id text NOT NULL, app_id text NOT NULL,
                    joined_at bigint NOT NULL, PRIMARY KEY (workspace_id, user_id))
                """,
                "CREATE INDEX workspace_member_by_user ON workspace_member (app_id, user_id)",
                """
                CREATE TABLE room (
                    id text PRIMARY KEY, app_id text NOT NULL, pair_key text NOT NULL, created_at bigint NOT NULL, updated_at bigint NOT NULL,
                    last_chat_seq bigint, kind text NOT NULL DEFAULT 'pair', workspace_id text REFERENCES workspace ON DELETE CASCADE,
                    UNIQUE (app_id, pair_key))
                """,
                "CREATE INDEX room_by_workspace ON room (workspace_id, kind) WHERE workspace_id IS NOT NULL",
                // `joined` orders a channel's members as they came (SQLite's rowid).
                """
                CREATE TABLE participant (
                    room_id text NOT NULL REFERENCES room ON DELETE CASCADE, user_id text NOT NULL, app_id text NOT NULL,
                    read_at bigint NOT NULL DEFAULT 0, joined bigint GENERATED ALWAYS AS IDENTITY, PRIMARY KEY (room_id, user_id))
                """,
                "CREATE INDEX participant_by_user ON participant (app_id, user_id)",
                """
                CREATE TABLE chat (
                    seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, room_id text NOT NULL REFERENCES room ON DELETE CASCADE,
                    sender_id text NOT NULL, content text NOT NULL, files text NOT NULL DEFAULT '[]', client_id text, created_at bigint NOT NULL)
                """,
                "CREATE UNIQUE INDEX chat_client_id ON chat (room_id, sender_id, client_id) WHERE client_id IS NOT NULL",
                "CREATE INDEX chat_by_room_time_sender ON chat (room_id, created_at, sender_id)",
                "CREATE INDEX chat_search ON chat USING gin (room_id, content gin_trgm_ops)",
                """
                CREATE TABLE channel (
                    room_id text PRIMARY KEY REFERENCES room ON DELETE CASCADE, workspace_id text NOT NULL REFERENCES workspace ON DELETE CASCADE,
                    name text NOT NULL, description text, cover_image text, owner_id text NOT NULL, created_at bigint NOT NULL,
                    is_default boolean NOT NULL DEFAULT false, UNIQUE (workspace_id, name))
                """,
                // What the room's sockets were sent, for the sockets on other replicas (`LiveFrameListener`):
                // kept a while after it is announced, so a listener that reconnects catches up.
                """
                CREATE TABLE live_frame (
                    seq bigint PRIMARY KEY, origin text NOT NULL, room_id text NOT NULL, event text NOT NULL, json text NOT NULL,
                    logged_at bigint NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
                """,
                "CREATE INDEX live_frame_by_time ON live_frame (logged_at)",
            ] + PostgresOutboxStore.createTable),
        // Who has a socket on which room on each replica (`PresenceBoard`), for push-svc to leave
        // them out; a replica's rows count while its heartbeat is fresh and go with its row.
        PostgresMigration(
            "v2-presence",
            [
                "CREATE TABLE replica (origin text PRIMARY KEY, seen_at bigint NOT NULL)",
                """
                CREATE TABLE presence (
                    room_id text NOT NULL, user_id text NOT NULL, origin text NOT NULL REFERENCES replica ON DELETE CASCADE,
                    PRIMARY KEY (room_id, user_id, origin))
                """,
                "CREATE INDEX presence_by_origin ON presence (origin)",
            ]),
        PostgresMigration(
            "v3-hidden-content",
            [HiddenContentSchema.postgres, HiddenContentSchema.postgresIndex]
                + PostgresChangeCounter.triggers(channel: HiddenContentSchema.channel, tables: ["hidden_content"])),
        PostgresMigration("v4-message-activity", ["CREATE INDEX chat_by_time ON chat (created_at)"]),
        PostgresMigration("v5-message-by-sender", ["CREATE INDEX chat_by_sender ON chat (sender_id, created_at)"]),
    ]
}
