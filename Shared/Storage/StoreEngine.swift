import GRDB
import Logging
import Outbox
import PostgresStorage
import SQLiteStorage
import ServiceKit
import ServiceLifecycle

/// Where a service keeps its data: its SQLite file in `DATA_DIR` (the default: one machine), or
/// PostgreSQL when `<SVC>_DATABASE_URL` names one (replicas share it).
package enum StoreEngine: Sendable {
    case sqlite(DatabasePool)
    case postgres(PostgresPool)

    /// The engine the settings name, its schema migrated (the pool closed again when that fails).
    package static func open(
        databaseURL: String?, sqlitePath: String, sqlite: DatabaseMigrator, postgres: [PostgresMigration], logger: Logger
    ) async throws -> StoreEngine {
        guard let databaseURL else { return .sqlite(try DatabaseFactory.openPool(at: sqlitePath, migrator: sqlite)) }
        let pool = try PostgresPool(url: databaseURL, logger: logger)
        do {
            try await pool.migrate(postgres)
        } catch {
            pool.close()
            throw error
        }
        return .postgres(pool)
    }

    /// `sqlite` or `postgresql`, as manifests name the engine.
    package var name: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgresql"
        }
    }

    /// Lets the store go (a command done with it).
    package func close() {
        switch self {
        case .sqlite(let database): try? database.close()
        case .postgres(let pool): pool.close()
        }
    }

    /// `/health`: the store answers.
    package var health: @Sendable () async throws -> Void {
        switch self {
        case .sqlite(let database): { try await DatabaseFactory.check(database) }
        case .postgres(let pool): { try await pool.check() }
        }
    }

    /// What runs and stops with the service group (PostgreSQL's pool).
    package var services: [any Service] {
        switch self {
        case .sqlite: []
        case .postgres(let pool): [pool]
        }
    }

    /// The service's outbox on this engine.
    package var outbox: any OutboxStore {
        switch self {
        case .sqlite(let database): SQLiteOutboxStore(database: database)
        case .postgres(let pool): PostgresOutboxStore(database: pool)
        }
    }
}

extension ConfigVariable {
    /// `<PREFIX>_DATABASE_URL`: the service's data on PostgreSQL instead of its SQLite file.
    package static func databaseURL(_ prefix: String, service: String) -> ConfigVariable {
        ConfigVariable(
            prefix + "_DATABASE_URL", default: "",
            "postgres://user:password@host:port/database: keep \(service)'s data on PostgreSQL (replicas share it); empty = the SQLite file in DATA_DIR"
        )
    }
}

extension ConfigReader {
    /// A `<SVC>_DATABASE_URL`, checked as the pool will read it; nil when unset.
    package func databaseURL(_ variable: ConfigVariable) throws -> String? {
        let url = try string(variable)
        guard !url.isEmpty else { return nil }
        do {
            _ = try PostgresPool.configuration(url)
        } catch {
            return try refuse(variable, String(describing: error), standIn: nil)
        }
        return url
    }
}
