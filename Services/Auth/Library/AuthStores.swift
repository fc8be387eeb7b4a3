import GRDB
import Logging
import ServiceKit
import ServiceLifecycle

/// auth-svc's stores on one engine: its SQLite file in `DATA_DIR` (the default), or PostgreSQL
/// when `AUTH_DATABASE_URL` names one (several replicas on one database).
struct AuthStores: Sendable {
    enum Engine: Sendable {
        case sqlite(DatabasePool)
        case postgres(PostgresPool)
    }

    var apps: any AppStore
    var users: any UserStore
    var accounts: any AccountStore
    var profiles: any ProfileStore
    var appleGrants: any AppleGrantStore
    var outbox: any OutboxStore
    var health: @Sendable () async throws -> Void
    /// What runs and stops with the service group (PostgreSQL's pool).
    var services: [any Service]

    init(_ engine: Engine, rules: RefreshRules) {
        switch engine {
        case .sqlite(let database):
            (apps, users, accounts) = (Self.apps(on: engine), SQLiteUserStore(database: database), SQLiteAccountStore(database: database, rules: rules))
            (profiles, appleGrants, outbox) = (SQLiteProfileStore(database: database), SQLiteAppleGrantStore(database: database), SQLiteOutboxStore(database: database))
            health = { try await DatabaseFactory.check(database) }
            services = []
        case .postgres(let pool):
            (apps, users, accounts) = (Self.apps(on: engine), PostgresUserStore(pool: pool), PostgresAccountStore(pool: pool, rules: rules))
            (profiles, appleGrants, outbox) = (PostgresProfileStore(pool: pool), PostgresAppleGrantStore(pool: pool), PostgresOutboxStore(database: pool))
            health = { try await pool.check() }
            services = [pool]
        }
    }

    /// The app registry alone (the `apps` command needs no more).
    static func apps(on engine: Engine) -> any AppStore {
        switch engine {
        case .sqlite(let database): SQLiteAppStore(database: database)
        case .postgres(let pool): PostgresAppStore(pool: pool)
        }
    }

    /// The engine the settings name, its schema migrated.
    static func open(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> Engine {
        guard let databaseURL else { return .sqlite(try DatabaseFactory.openPool(at: sqlitePath, migrator: AuthMigrations.migrator)) }
        let pool = try PostgresPool(url: databaseURL, logger: logger)
        do {
            try await pool.migrate(AuthPostgresMigrations.all)
        } catch {
            pool.close()
            throw error
        }
        return .postgres(pool)
    }
}
