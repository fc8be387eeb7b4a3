import Logging
import Outbox
import SQLiteStorage
import ServiceKit
import Storage

/// chat-svc's stores on one engine: its SQLite file in `DATA_DIR` (the default), or PostgreSQL
/// when `CHAT_DATABASE_URL` names one (replicas on one database, their sockets told of each
/// other's messages by `LiveFrameListener`).
struct ChatStores: Sendable {
    var rooms: any RoomStore
    var messages: any MessageStore
    var channels: any ChannelStore
    var workspaces: any WorkspaceStore
    var outbox: any OutboxStore

    /// `origin` names this replica in the frames it announces.
    init(_ engine: StoreEngine, origin: String) throws {
        outbox = engine.outbox
        switch engine {
        case .sqlite(let database):
            let lookups = try SQLiteLookups(beside: database)
            (rooms, messages) = (SQLiteRoomStore(database: database, lookups: lookups), SQLiteMessageStore(database: database, lookups: lookups))
            (channels, workspaces) = (
                SQLiteChannelStore(database: database, lookups: lookups), SQLiteWorkspaceStore(database: database, lookups: lookups)
            )
        case .postgres(let pool):
            (rooms, messages) = (PostgresRoomStore(pool: pool), PostgresMessageStore(pool: pool, origin: origin))
            (channels, workspaces) = (PostgresChannelStore(pool: pool), PostgresWorkspaceStore(pool: pool))
        }
    }

    /// The engine the settings name, its schema migrated.
    static func open(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await StoreEngine.open(
            databaseURL: databaseURL, sqlitePath: sqlitePath, sqlite: ChatMigrations.migrator, postgres: ChatPostgresMigrations.all, logger: logger)
    }
}
