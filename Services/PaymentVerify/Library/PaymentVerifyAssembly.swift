import Contracts
import Hummingbird
import Logging
import Outbox
import ServiceClients
import ServiceKit
import ServiceLifecycle
import Storage

/// PortOne payment verification, webhooks, receipts and coin purchases (API.md §5).
package enum PaymentVerifyAssembly {
    /// The SQLite migrations this build knows, in order (a snapshot with others is from a newer build).
    package static var sqliteMigrations: [String] { PaymentMigrations.migrator.migrations }
    /// The PostgreSQL migrations this build knows, in order.
    package static var postgresMigrations: [String] { PaymentPostgresMigrations.all.map(\.name) }

    /// An app's records as `glint app export` takes them; `seq` and an attempt's id are numbered
    /// anew in the order rows were. Left out: the outbox.
    package static let exportedTables = [
        ExportedTable("payment", leftOut: ["seq"], postgresOrder: "seq"),
        ExportedTable("payment_attempt", leftOut: ["id"], postgresOrder: "id"),
    ]

    /// payment-verify-svc's store as its settings name it, migrated (commands that read it).
    package static func openStore(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await StoreEngine.open(
            databaseURL: databaseURL, sqlitePath: sqlitePath, sqlite: PaymentMigrations.migrator, postgres: PaymentPostgresMigrations.all,
            logger: logger)
    }

    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) async throws -> ServiceAssembly {
        let configuration = try PaymentConfiguration(reader: reader)
        let engine = try await openStore(databaseURL: configuration.databaseURL, sqlitePath: common.databasePath, logger: logger)
        let http = HTTPClientService.make()
        let client = InternalClient(http: http.client, configuration: common)
        let dependencies = Dependencies(
            jwks: .live(client: client), revocations: .live(client: client),
            portOne: .live(http: http.client, settings: configuration.portOne, logger: logger), market: .live(client)
        )
        return try assemble(
            common: common, configuration: configuration, logger: logger, engine: engine, dependencies: dependencies, services: [http])
    }

    /// What payment-verify-svc is given; tests pass a simulator-backed PG and fakes.
    struct Dependencies: Sendable {
        var jwks: JWKSClient
        /// auth-svc's bans, long-polled.
        var revocations: RevocationFeed = .none
        var portOne: PortOneClient
        var market: MarketClient
    }

    static func assemble(
        common: CommonConfiguration, configuration: PaymentConfiguration, logger: Logger, engine: StoreEngine, dependencies: Dependencies,
        services: [any Service] = []
    ) throws -> ServiceAssembly {
        let store: any PaymentStore =
            switch engine {
            case .sqlite(let database): SQLitePaymentStore(database: database)
            case .postgres(let pool): PostgresPaymentStore(pool: pool)
            }
        let verifier = VerificationService(
            store: store, portOne: dependencies.portOne, market: dependencies.market,
            products: configuration.coinProducts, logger: logger)
        let relay = OutboxRelay(store: engine.outbox, logger: logger) { message in
            switch message.topic {
            case PaymentGrantEvent.topic:
                let event: PaymentGrantEvent = try JSONText.decode(message.payload).orThrow()
                switch event.kind {
                case .order: _ = try await dependencies.market.markPaid(event.merchantUID, event.appID, nil)
                case .coins: _ = try await dependencies.market.grantCoins(event)
                }
            case PaymentGrantEvent.refundTopic:
                let event: PaymentGrantEvent = try JSONText.decode(message.payload).orThrow()
                switch event.kind {
                case .order: try await dependencies.market.markRefunded(event.merchantUID, event.appID)
                case .coins: _ = try await dependencies.market.refundCoins(event)
                }
            case PaymentWebhook.topic:
                let webhook: PaymentWebhook = try JSONText.decode(message.payload).orThrow()
                try await verifier.processWebhook(webhook.impUID)
            default:
                logger.error("unknown outbox topic", metadata: ["topic": "\(message.topic)"])
            }
        }
        let routes = PaymentRoutes(
            verifier: verifier, operators: OperatorPayments(store: store, portOne: dependencies.portOne, verifier: verifier, logger: logger),
            configuration: configuration, queued: { relay.nudge() })
        let (tokens, bans, _) = AccessTokenVerifier.watching(jwks: dependencies.jwks, revocations: dependencies.revocations, logger: logger)
        return ServiceApplication.assemble(
            configuration: common, logger: logger, healthCheck: engine.health, services: engine.services + services + [relay, bans]
        ) { group in
            routes.register(internal: group, protected: group.group().add(middleware: AccessTokenMiddleware(verifier: tokens)))
        }
    }
}
