import Contracts
import GRDB
import Hummingbird
import Logging
import ServiceKit
import ServiceLifecycle

/// Filters, community posts, comments, likes and orders (API.md §2).
public enum MarketService {
    public static func buildApplication(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) throws -> any ApplicationProtocol {
        let database = try DatabaseFactory.openPool(at: common.databasePath, migrator: MarketMigrations.migrator)
        let http = HTTPClientService.make()
        let client = InternalClient(http: http.client, configuration: common)
        let dependencies = Dependencies(users: .live(client), jwks: .live(client: client), deliver: { message in
            // geo-svc applies location events idempotently by post id.
            let event: PostLocationEvent = try JSONText.decode(message.payload).orThrow()
            _ = try await client.post(.geo, "/internal/post-locations", body: event, headers: [(InternalHeader.appID, event.appID)], as: EmptyAnswer.self)
        })
        return try build(common: common, configuration: try MarketConfiguration(reader: reader), logger: logger, database: database,
                         dependencies: dependencies, services: [http])
    }

    /// What market-svc asks other services; tests pass fakes.
    struct Dependencies: Sendable {
        var users: UserDirectory
        var jwks: JWKSClient
        var deliver: OutboxRelay.Deliver
    }

    static func build(
        common: CommonConfiguration, configuration: MarketConfiguration = MarketConfiguration(), logger: Logger, database: DatabasePool,
        dependencies: Dependencies, services: [any Service] = []
    ) throws -> Application<RouterResponder<GlintRequestContext>> {
        let comments = CommentService(database: database)
        let relay = OutboxRelay(database: database, logger: logger, deliver: dependencies.deliver)
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
        return ServiceApplication.build(
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
