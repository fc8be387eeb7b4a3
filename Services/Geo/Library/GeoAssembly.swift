import Backup
import Contracts
import GRDB
import Hummingbird
import Logging
import SQLiteStorage
import ServiceClients
import ServiceKit
import ServiceLifecycle
import Storage

/// Located posts, reverse geocoding and walks (API.md §4).
package enum GeoAssembly {
    /// The SQLite migrations this build knows, in order (a snapshot with others is from a newer build).
    package static var sqliteMigrations: [String] { GeoMigrations.migrator.migrations }

    /// An app's records as `glint app export` takes them. A place's row id is numbered anew and
    /// its R*Tree box made from it (a removed post's row keeps no box).
    package static let exportedTables = [
        ExportedTable(
            "post_location", leftOut: ["id"],
            derive: [
                """
                INSERT INTO post_location_box (id, min_lon, max_lon, min_lat, max_lat)
                SELECT id, longitude, longitude, latitude, latitude FROM post_location WHERE app_id = {app} AND NOT removed
                """
            ],
            underive: ["DELETE FROM post_location_box WHERE id IN (SELECT id FROM post_location WHERE app_id = {app})"]),
        ExportedTable("walk"),
    ]

    /// geo-svc's store (SQLite only), migrated (commands that read it).
    package static func openStore(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        .sqlite(try DatabaseFactory.openPool(at: sqlitePath, migrator: GeoMigrations.migrator))
    }

    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) throws -> ServiceAssembly {
        let configured = try reader.string(GeoSettings.boundaries)
        try reader.finish()
        let database = try DatabaseFactory.openPool(at: common.databasePath, migrator: GeoMigrations.migrator)
        let http = HTTPClientService.make()
        let client = InternalClient(http: http.client, configuration: common)
        let geocoder = ReverseGeocoder.load(path: configured.isEmpty ? GeoSettings.shippedBoundaries ?? "" : configured, logger: logger)
        return try assemble(
            common: common, logger: logger, database: database,
            dependencies: Dependencies(jwks: .live(client: client), revocations: .live(client: client), market: .live(client), geocoder: geocoder),
            services: [http])
    }

    /// What geo-svc is given; tests pass fakes for market-svc and the keys.
    struct Dependencies: Sendable {
        var jwks: JWKSClient
        /// auth-svc's bans, long-polled.
        var revocations: RevocationFeed = .none
        var market: MarketClient
        var geocoder: ReverseGeocoder
    }

    static func assemble(
        common: CommonConfiguration, logger: Logger, database: DatabasePool, dependencies: Dependencies, services: [any Service] = []
    ) throws -> ServiceAssembly {
        let nearby = NearbyRoutes(nearby: NearbyService(store: SQLiteLocationStore(database: database)), market: dependencies.market)
        let walks = WalkRoutes(walks: WalkService(store: SQLiteWalkStore(database: database), geocoder: dependencies.geocoder))
        let (verifier, bans, _) = AccessTokenVerifier.watching(jwks: dependencies.jwks, revocations: dependencies.revocations, logger: logger)
        return ServiceApplication.assemble(
            configuration: common, logger: logger, healthCheck: { try await DatabaseFactory.check(database) }, services: services + [bans]
        ) { group in
            let protected = group.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
            nearby.register(internal: group, protected: protected)
            ReverseGeocodeRoutes(geocoder: dependencies.geocoder).register(protected: protected)
            walks.register(protected: protected)
            // Its volume is its own in Kubernetes: a backup job asks for a copy.
            SnapshotRoute.register(on: group, databasePath: common.databasePath, service: .geo)
        }
    }
}
