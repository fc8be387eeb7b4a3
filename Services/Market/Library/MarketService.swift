import Contracts
import GRDB
import Hummingbird
import Logging
import ServiceKit
import ServiceLifecycle

/// Filters, community posts, comments, likes and orders (API.md §2).
package enum MarketService {
    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) throws -> ServiceAssembly {
        let database = try DatabaseFactory.openPool(at: common.databasePath, migrator: MarketMigrations.migrator)
        let http = HTTPClientService.make()
        let client = InternalClient(http: http.client, configuration: common)
        let dependencies = Dependencies(users: .live(client), jwks: .live(client: client), geo: .live(client))
        return try assemble(common: common, configuration: try MarketConfiguration(reader: reader), logger: logger, database: database,
                         dependencies: dependencies, services: [http])
    }

    /// What market-svc asks other services; tests pass fakes.
    struct Dependencies: Sendable {
        var users: UsersClient
        var jwks: JWKSClient
        var geo: GeoClient
    }

    static func assemble(
        common: CommonConfiguration, configuration: MarketConfiguration = MarketConfiguration(), logger: Logger, database: DatabasePool,
        dependencies: Dependencies, services: [any Service] = []
    ) throws -> ServiceAssembly {
        let comments = CommentService(database: database)
        let relay = OutboxRelay(database: database, logger: logger) { message in
            try await dependencies.geo.postLocationChanged(try JSONText.decode(message.payload).orThrow())
        }
        let posts = PostRoutes(
            posts: PostService(database: database, users: dependencies.users, comments: comments, locationsChanged: { relay.nudge() }),
            images: try FileStore(dataDirectory: common.dataDirectory, area: "posts")
        )
        let filterService = FilterService(database: database, users: dependencies.users, comments: comments)
        let filters = FilterRoutes(
            filters: filterService, orders: OrderService(database: database, users: dependencies.users, filters: filterService),
            images: try FileStore(dataDirectory: common.dataDirectory, area: "filters")
        )
        let discovery = DiscoveryRoutes(
            filters: filterService, trends: TrendService(database: database, refresh: configuration.trendRefresh),
            users: dependencies.users, banners: configuration.banners
        )
        let wallets = WalletRoutes(wallets: WalletService(database: database))
        let verifier = AccessTokenVerifier(jwks: dependencies.jwks)
        return ServiceApplication.assemble(
            configuration: common, logger: logger, healthCheck: { try await DatabaseFactory.check(database) }, services: services + [relay]
        ) { group in
            let protected = group.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
            posts.register(internal: group, protected: protected)
            discovery.register(protected: protected)
            filters.register(internal: group, protected: protected)
            wallets.register(internal: group)
        }
    }
}
