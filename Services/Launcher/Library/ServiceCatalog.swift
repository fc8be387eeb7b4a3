import AdminService
import AuthService
import ChatService
import Contracts
import FileStorage
import Gateway
import GeoService
import Logging
import MarketService
import PaymentVerifyService
import PushService
import ServiceKit
import Storage

/// How to assemble each process; `glint serve <name>` runs one of these in its own process.
package enum ServiceCatalog {
    package static func assembler(for service: ServiceName) -> ServiceMain.Assembler {
        switch service {
        case .gateway: GatewayAssembly.assemble
        case .auth: AuthAssembly.assemble
        case .chat: ChatAssembly.assemble
        case .market: MarketAssembly.assemble
        case .geo: GeoAssembly.assemble
        case .paymentVerify: PaymentVerifyAssembly.assemble
        case .push: PushAssembly.assemble
        case .admin: AdminAssembly.assemble
        }
    }
}

extension ServiceCatalog {
    /// Every environment variable a service process reads (README table and compose file are
    /// checked against this).
    package static func variables(for service: ServiceName) -> [ConfigVariable] {
        switch service {
        case .gateway: CommonSettings.all + GatewaySettings.all
        case .auth: CommonSettings.all + AuthSettings.all + FileStorageSettings.all
        case .market: CommonSettings.all + MarketSettings.all + FileStorageSettings.all
        case .chat: CommonSettings.all + ChatSettings.all + FileStorageSettings.all
        case .geo: CommonSettings.all + GeoSettings.all
        case .paymentVerify: CommonSettings.all + PaymentSettings.all
        case .push: CommonSettings.all + PushSettings.all
        case .admin: CommonSettings.all + AdminSettings.all
        }
    }
}

extension ServiceCatalog {
    /// The SQLite migrations this build knows for a service's store (the gateway keeps none).
    package static func sqliteMigrations(for service: ServiceName) -> [String] {
        switch service {
        case .gateway: []
        case .auth: AuthAssembly.sqliteMigrations
        case .market: MarketAssembly.sqliteMigrations
        case .chat: ChatAssembly.sqliteMigrations
        case .geo: GeoAssembly.sqliteMigrations
        case .paymentVerify: PaymentVerifyAssembly.sqliteMigrations
        case .push: PushAssembly.sqliteMigrations
        case .admin: AdminAssembly.sqliteMigrations
        }
    }
}

extension ServiceCatalog {
    /// The PostgreSQL migrations this build knows for a service's store (geo-svc and the gateway keep none there).
    package static func postgresMigrations(for service: ServiceName) -> [String] {
        switch service {
        case .gateway, .geo: []
        case .auth: AuthAssembly.postgresMigrations
        case .market: MarketAssembly.postgresMigrations
        case .chat: ChatAssembly.postgresMigrations
        case .paymentVerify: PaymentVerifyAssembly.postgresMigrations
        case .push: PushAssembly.postgresMigrations
        case .admin: AdminAssembly.postgresMigrations
        }
    }

    /// `<SVC>_DATABASE_URL`: where a service keeps its store on PostgreSQL, when set.
    package static func databaseURLVariable(for service: ServiceName) -> ConfigVariable? {
        switch service {
        case .gateway, .geo: nil
        case .auth: AuthSettings.databaseURL
        case .market: MarketSettings.databaseURL
        case .chat: ChatSettings.databaseURL
        case .paymentVerify: PaymentSettings.databaseURL
        case .push: PushSettings.databaseURL
        case .admin: AdminSettings.databaseURL
        }
    }
}

extension ServiceCatalog {
    /// The order `glint backup create` copies the stores in: a store before those its rows refer
    /// to, so every reference in a copy finds what it names in the copies taken after it (a
    /// payment's order in market-svc, a post's author in auth-svc, a place's post in market-svc).
    /// Where that puts an outbox's consumer before its producer (geo-svc before market-svc,
    /// market-svc and push-svc before auth-svc), the producer's copy may record deliveries the
    /// consumer's lacks: a restore sends every message delivered since the snapshot began again
    /// (`Backups.restore`; consumers are idempotent).
    package static let backupOrder: [ServiceName] = [.admin, .geo, .paymentVerify, .chat, .push, .market, .auth, .gateway]

    /// Services that answer `SnapshotRoute` with a copy of their SQLite file, for a backup that
    /// cannot open it (geo-svc keeps SQLite only, on a volume of its own in Kubernetes).
    package static let snapshotOverHTTP: [ServiceName] = [.geo]
}

extension ServiceCatalog {
    /// The stores that hold an app's records, in the order `glint app import` loads them:
    /// auth-svc, whose row makes the app known, last.
    package static let appRecordOrder: [ServiceName] = [.geo, .paymentVerify, .push, .chat, .market, .auth]

    /// A service's tables of an app's records (`glint app export`).
    package static func exportedTables(for service: ServiceName) -> [ExportedTable] {
        switch service {
        case .gateway, .admin: []
        case .auth: AuthAssembly.exportedTables
        case .market: MarketAssembly.exportedTables
        case .chat: ChatAssembly.exportedTables
        case .geo: GeoAssembly.exportedTables
        case .paymentVerify: PaymentVerifyAssembly.exportedTables
        case .push: PushAssembly.exportedTables
        }
    }

    /// Where a service's records name uploads.
    package static func fileReferences(for service: ServiceName) -> [FileReference] {
        switch service {
        case .auth: AuthAssembly.fileReferences
        case .market: MarketAssembly.fileReferences
        case .chat: ChatAssembly.fileReferences
        case .gateway, .admin, .geo, .paymentVerify, .push: []
        }
    }

    /// Opens a service's store as its process would (migrated forward): its `*_DATABASE_URL`, else
    /// its SQLite file.
    package static func openStore(for service: ServiceName, databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        switch service {
        case .auth: try await AuthAssembly.openStore(databaseURL: databaseURL, sqlitePath: sqlitePath, logger: logger)
        case .market: try await MarketAssembly.openStore(databaseURL: databaseURL, sqlitePath: sqlitePath, logger: logger)
        case .chat: try await ChatAssembly.openStore(databaseURL: databaseURL, sqlitePath: sqlitePath, logger: logger)
        case .geo: try await GeoAssembly.openStore(databaseURL: databaseURL, sqlitePath: sqlitePath, logger: logger)
        case .paymentVerify: try await PaymentVerifyAssembly.openStore(databaseURL: databaseURL, sqlitePath: sqlitePath, logger: logger)
        case .push: try await PushAssembly.openStore(databaseURL: databaseURL, sqlitePath: sqlitePath, logger: logger)
        case .gateway, .admin: throw ServiceError(.internalError, "\(service.rawValue) keeps no app's records")
        }
    }
}
