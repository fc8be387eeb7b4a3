import Logging
import Storage

/// admin-svc's stores on one engine: its SQLite file in `DATA_DIR` (the default), or PostgreSQL
/// when `ADMIN_DATABASE_URL` names one.
struct AdminStores: Sendable {
    var operators: any OperatorStore
    var sessions: any SessionStore
    var audit: any AuditStore

    init(_ engine: StoreEngine) {
        switch engine {
        case .sqlite(let database):
            (operators, sessions, audit) = (
                SQLiteOperatorStore(database: database), SQLiteSessionStore(database: database), SQLiteAuditStore(database: database)
            )
        case .postgres(let pool):
            (operators, sessions, audit) = (PostgresOperatorStore(pool: pool), PostgresSessionStore(pool: pool), PostgresAuditStore(pool: pool))
        }
    }

    /// The engine the settings name, its schema migrated.
    static func open(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await StoreEngine.open(
            databaseURL: databaseURL, sqlitePath: sqlitePath, sqlite: AdminMigrations.migrator, postgres: AdminPostgresMigrations.all,
            logger: logger)
    }
}
