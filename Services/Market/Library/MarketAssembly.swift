import Contracts
import FileStorage
import Hummingbird
import Logging
import Moderation
import Outbox
import ServiceClients
import ServiceKit
import ServiceLifecycle
import Storage

/// Filters, community posts, comments, likes and orders (API.md §2), coins (§8), and the book
/// stories of quotehub apps (§9).
package enum MarketAssembly {
    /// The SQLite migrations this build knows, in order (a snapshot with others is from a newer build).
    package static var sqliteMigrations: [String] { MarketMigrations.migrator.migrations }
    /// The PostgreSQL migrations this build knows, in order.
    package static var postgresMigrations: [String] { MarketPostgresMigrations.all.map(\.name) }

    /// Where market-svc's records name uploads (`glint files migrate`).
    package static let fileReferences = [
        FileReference(area: "posts", from: "post", column: "files", isList: true),
        FileReference(area: "filters", from: "filter", column: "files", isList: true),
        FileReference(area: "bookstories", from: "story", column: "images", isList: true),
        FileReference(area: "folders", from: "theme", column: "image", isList: false),
    ]

    /// An app's records as `glint app export` takes them, in the order they load; `seq` is
    /// numbered anew in the order rows were. Left out: the outbox, and the story counts (kept
    /// by the stories' trigger as they load).
    package static let exportedTables = [
        ExportedTable("post", leftOut: ["seq"], postgresOrder: "seq"),
        ExportedTable("post_like", scope: "post_id IN (SELECT id FROM post WHERE app_id = {app})"),
        ExportedTable("comment", leftOut: ["seq"], postgresOrder: "seq"),
        ExportedTable("filter", leftOut: ["seq"], postgresOrder: "seq"),
        ExportedTable("filter_like", scope: "filter_id IN (SELECT id FROM filter WHERE app_id = {app})"),
        ExportedTable("purchase_order"),
        ExportedTable("wallet"),
        ExportedTable("coin_grant"),
        ExportedTable("coin_spend"),
        ExportedTable("book", leftOut: ["seq"], postgresOrder: "seq"),
        ExportedTable("story", leftOut: ["seq"], postgresOrder: "seq"),
        ExportedTable("theme", leftOut: ["seq"], postgresOrder: "seq"),
        ExportedTable("story_theme", scope: "story_id IN (SELECT id FROM story WHERE app_id = {app})"),
        ExportedTable("hidden_content"),
    ]

    /// market-svc's store as its settings name it, migrated (commands that read it).
    package static func openStore(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await MarketStores.open(databaseURL: databaseURL, sqlitePath: sqlitePath, logger: logger)
    }

    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) async throws -> ServiceAssembly {
        let configuration = try MarketConfiguration(reader: reader)
        let engine = try await MarketStores.open(databaseURL: configuration.databaseURL, sqlitePath: common.databasePath, logger: logger)
        let http = HTTPClientService.make()
        let client = InternalClient(http: http.client, configuration: common)
        let usersChanged = engine.changeSignal(channel: MarketPostgresMigrations.usersChanged)
        let dependencies = Dependencies(
            auth: .live(client, changes: usersChanged.counter), jwks: .live(client: client), revocations: .live(client: client),
            geo: .live(client, InternalEndpoints.Geo.postLocation, appID: \.appID),
            kakao: .live(url: configuration.kakaoBookURL, restKey: configuration.kakaoRestKey, http: http.client),
            usersChanged: usersChanged
        )
        return try assemble(
            common: common, configuration: configuration, logger: logger, engine: engine, dependencies: dependencies, services: [http])
    }

    /// Posts, comments, filters, stories and themes operators hide (admin-svc asks).
    private static func contentModeration(engine: StoreEngine, stores: MarketStores) -> ContentModeration {
        // A hidden comment leaves the kept post answers: this replica's at once, the others' on
        // the post channel's notification (a trigger on hidden_content).
        let changes = engine.changeSignal(channel: HiddenContentSchema.channel).announcing(also: stores.postsChangedHere)
        return ContentModeration(
            store: engine.hiddenContent, changes: changes, kinds: ContentKind.allCases.filter { $0 != .message },
            catalog: .market(stores, engine: engine))
    }

    /// What market-svc asks other services; tests pass fakes.
    struct Dependencies: Sendable {
        /// auth-svc: users, whom a caller blocked, what a quotehub reader hid.
        var auth: AuthClient
        var jwks: JWKSClient
        /// auth-svc's bans, long-polled.
        var revocations: RevocationFeed = .none
        /// geo-svc, told of post locations.
        var geo: EventClient<PostLocationEvent>
        /// Kakao's book search.
        var kakao: KakaoBookClient
        /// auth-svc's word that users changed: what `auth` keeps is dropped.
        var usersChanged = ChangeSignal.local()
    }

    static func assemble(
        common: CommonConfiguration, configuration: MarketConfiguration = MarketConfiguration(), logger: Logger, engine: StoreEngine,
        dependencies: Dependencies, services: [any Service] = []
    ) throws -> ServiceAssembly {
        let stores = try MarketStores(engine)
        let relay = OutboxRelay(store: stores.outbox, logger: logger) { message in
            try await dependencies.geo.send(try JSONText.decode(message.payload).orThrow())
        }
        let users = dependencies.auth
        let comments = CommentService(store: stores.comments, users: users)
        let postCache = PostAnswerCache(changes: stores.postChanges, maxBytes: configuration.postCacheBytes)
        let moderation = contentModeration(engine: engine, stores: stores)
        let posts = PostService(
            store: stores.posts, users: users, renderer: PostRenderer(users: users), cache: postCache, moderation: moderation,
            locationsChanged: { location in
                await relay.deliverAhead(topic: PostLocationEvent.topic, key: location.postID, payload: location)
                relay.nudge()
            }
        )
        let filters = FilterService(store: stores.filters, users: users, moderation: moderation)
        let files = configuration.files.backend(dataDirectory: common.dataDirectory, logger: logger)
        let postRoutes = PostRoutes(posts: posts, images: FileStore(backend: files, service: .market, area: "posts"))
        let filterRoutes = FilterRoutes(filters: filters, images: FileStore(backend: files, service: .market, area: "filters"))
        let postComments = CommentRoutes(comments: comments, target: .post, path: "/v1/posts/{post_id}", parameter: "post_id") { id, caller in
            try await posts.visible(id, caller: caller).id
        }
        let filterComments = CommentRoutes(comments: comments, target: .filter, path: "/v1/filters/{filter_id}", parameter: "filter_id") {
            id, caller in
            try await filters.find(id, caller: caller).id
        }
        let orders = OrderRoutes(orders: OrderService(store: stores.orders, filters: filters, users: users))
        let discovery = DiscoveryRoutes(
            filters: filters, trends: TrendService(store: stores.filters, refresh: configuration.trendRefresh), users: users,
            banners: configuration.banners
        )
        let wallets = WalletRoutes(wallets: WalletService(store: stores.wallets))
        let (verifier, bans, _) = AccessTokenVerifier.watching(jwks: dependencies.jwks, revocations: dependencies.revocations, logger: logger)
        let bookStories = BookStoryAssembly(files: files, stores: stores, dependencies: dependencies, moderation: moderation)
        return ServiceApplication.assemble(
            configuration: common, logger: logger,
            healthCheck: {
                try await engine.health(); try await files.check()
            },
            services: engine.services + stores.services + dependencies.usersChanged.services + moderation.services + services + files.services
                + [relay, bans]
        ) { group in
            let protected = group.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
            postRoutes.register(internal: group, protected: protected)
            postComments.register(on: protected)
            discovery.register(protected: protected)
            filterRoutes.register(internal: group, protected: protected)
            filterComments.register(on: protected)
            orders.register(internal: group, protected: protected)
            wallets.register(internal: group)
            dependencies.usersChanged.register(InternalEndpoints.Market.usersChanged, on: group)
            moderation.register(on: group)
            group.serve(InternalEndpoints.Activity.content) { _, query, context in
                ContentActivity(
                    posts: try await DailyActivity(from: "post", appColumn: "app_id", timeColumn: "created_at").series(
                        on: engine, appID: context.appID, days: query.days),
                    stories: try await DailyActivity(from: "story", appColumn: "app_id", timeColumn: "created_at").series(
                        on: engine, appID: context.appID, days: query.days))
            }
            bookStories.register(internal: group, guest: group.group().add(middleware: AccessTokenMiddleware(verifier: verifier, required: false)))
        }
    }
}
