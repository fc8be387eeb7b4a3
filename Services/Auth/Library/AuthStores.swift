import GRDB
import Logging
import Outbox
import SQLiteStorage
import ServiceKit
import ServiceLifecycle
import Storage

/// auth-svc's stores on one engine: its SQLite file in `DATA_DIR` (the default), or PostgreSQL
/// when `AUTH_DATABASE_URL` names one (several replicas on one database).
struct AuthStores: Sendable {
    var apps: any AppStore
    var users: any UserStore
    var accounts: any AccountStore
    var profiles: any ProfileStore
    var appleGrants: any AppleGrantStore
    var bans: any BanStore
    var reportQueue: any ReportQueueStore
    var userAdmin: any UserAdminStore
    var outbox: any OutboxStore

    init(_ engine: StoreEngine, rules: RefreshRules) throws {
        outbox = engine.outbox
        switch engine {
        case .sqlite(let database):
            let lookups = try SQLiteLookups(beside: database)
            (apps, users, accounts) = (
                SQLiteAppStore(database: database, lookups: lookups), SQLiteUserStore(database: database, lookups: lookups),
                try SQLiteAccountStore(database: database, lookups: lookups, rules: rules)
            )
            (profiles, appleGrants) = (SQLiteProfileStore(database: database), SQLiteAppleGrantStore(database: database))
            (bans, reportQueue) = (SQLiteBanStore(database: database, lookups: lookups), SQLiteReportQueueStore(database: database))
            userAdmin = SQLiteUserAdminStore(database: database)
        case .postgres(let pool):
            (apps, users, accounts) = (PostgresAppStore(pool: pool), PostgresUserStore(pool: pool), PostgresAccountStore(pool: pool, rules: rules))
            (profiles, appleGrants) = (PostgresProfileStore(pool: pool), PostgresAppleGrantStore(pool: pool))
            (bans, reportQueue) = (PostgresBanStore(pool: pool), PostgresReportQueueStore(pool: pool))
            userAdmin = PostgresUserAdminStore(pool: pool)
        }
    }

    /// The app registry alone (the `apps` command needs no more).
    static func apps(on engine: StoreEngine) throws -> any AppStore {
        switch engine {
        case .sqlite(let database): SQLiteAppStore(database: database, lookups: try SQLiteLookups(beside: database))
        case .postgres(let pool): PostgresAppStore(pool: pool)
        }
    }

    /// The engine the settings name, its schema migrated.
    static func open(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await StoreEngine.open(
            databaseURL: databaseURL, sqlitePath: sqlitePath, sqlite: AuthMigrations.migrator, postgres: AuthPostgresMigrations.all, logger: logger)
    }
}
