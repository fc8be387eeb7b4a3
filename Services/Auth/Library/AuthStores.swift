import GRDB
import Logging
import Outbox
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

    init(_ engine: StoreEngine, rules: RefreshRules) {
        outbox = engine.outbox
        switch engine {
        case .sqlite(let database):
            (apps, users, accounts) = (
                Self.apps(on: engine), SQLiteUserStore(database: database), SQLiteAccountStore(database: database, rules: rules)
            )
            (profiles, appleGrants) = (SQLiteProfileStore(database: database), SQLiteAppleGrantStore(database: database))
            (bans, reportQueue) = (SQLiteBanStore(database: database), SQLiteReportQueueStore(database: database))
            userAdmin = SQLiteUserAdminStore(database: database)
        case .postgres(let pool):
            (apps, users, accounts) = (Self.apps(on: engine), PostgresUserStore(pool: pool), PostgresAccountStore(pool: pool, rules: rules))
            (profiles, appleGrants) = (PostgresProfileStore(pool: pool), PostgresAppleGrantStore(pool: pool))
            (bans, reportQueue) = (PostgresBanStore(pool: pool), PostgresReportQueueStore(pool: pool))
            userAdmin = PostgresUserAdminStore(pool: pool)
        }
    }

    /// The app registry alone (the `apps` command needs no more).
    static func apps(on engine: StoreEngine) -> any AppStore {
        switch engine {
        case .sqlite(let database): SQLiteAppStore(database: database)
        case .postgres(let pool): PostgresAppStore(pool: pool)
        }
    }

    /// The engine the settings name, its schema migrated.
    static func open(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await StoreEngine.open(
            databaseURL: databaseURL, sqlitePath: sqlitePath, sqlite: AuthMigrations.migrator, postgres: AuthPostgresMigrations.all, logger: logger)
    }
}
