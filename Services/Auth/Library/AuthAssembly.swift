import AsyncHTTPClient
import Contracts
import FileStorage
import Foundation
import GRDB
import Hummingbird
import JWTKit
import Logging
import Outbox
import Passwords
import ServiceClients
import ServiceKit
import ServiceLifecycle
import Storage

/// Apps, users, sessions and profiles (API.md §1).
package enum AuthAssembly {
    /// The SQLite migrations this build knows, in order (a snapshot with others is from a newer build).
    package static var sqliteMigrations: [String] { AuthMigrations.migrator.migrations }
    /// The PostgreSQL migrations this build knows, in order.
    package static var postgresMigrations: [String] { AuthPostgresMigrations.all.map(\.name) }

    /// Where auth-svc's records name uploads (`glint files migrate`).
    package static let fileReferences = [
        FileReference(area: "profiles", from: "user", postgresFrom: "app_user", column: "profile_image", isList: false)
    ]

    /// An app's records as `glint app export` takes them, in the order they load. Left out:
    /// sessions (tokens do not move between deployments), Apple grants (sealed with this
    /// deployment's key: they would not open elsewhere) and the outbox.
    package static let exportedTables = [
        ExportedTable("app", scope: "id = {app}", derive: ["UPDATE ban_revision SET revision = revision + 1, apps_revision = apps_revision + 1"]),
        ExportedTable("user", postgresTable: "app_user"),
        ExportedTable("social_identity"),
        ExportedTable("follow", scope: "follower_id IN (SELECT id FROM {user} WHERE app_id = {app})"),
        ExportedTable("block", scope: "blocker_id IN (SELECT id FROM {user} WHERE app_id = {app})"),
        ExportedTable("report"),
        ExportedTable("attendance", scope: "user_id IN (SELECT id FROM {user} WHERE app_id = {app})"),
        ExportedTable("ban"),
        ExportedTable("token_cutoff"),
    ]

    /// auth-svc's store as its settings name it, migrated (commands that read it).
    package static func openStore(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await AuthStores.open(databaseURL: databaseURL, sqlitePath: sqlitePath, logger: logger)
    }

    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) async throws -> ServiceAssembly {
        let configuration = try AuthConfiguration(common: common, reader: reader)
        let engine = try await AuthStores.open(databaseURL: configuration.databaseURL, sqlitePath: common.databasePath, logger: logger)
        let signingKey = try SigningKey.loadOrCreate(at: configuration.signingKeyPath)
        let http = HTTPClientService.make()
        let internalClient = InternalClient(http: http.client, configuration: common)
        let dependencies = Dependencies(
            hasher: .bcrypt(cost: configuration.bcryptCost), market: .live(internalClient),
            push: .live(internalClient, InternalEndpoints.Push.deviceToken, appID: \.appID),
            appleKeys: .http(url: configuration.appleKeysURL, client: http.client), http: http.client,
            appleTokens: .live(tokenURL: configuration.appleTokenURL, revokeURL: configuration.appleRevokeURL, http: http.client),
            usersChanged: .live(internalClient, logger: logger)
        )
        return try await assemble(
            common: common, configuration: configuration, logger: logger, engine: engine, signingKey: signingKey,
            dependencies: dependencies, services: [http], seedDevelopmentApp: true
        )
    }

    /// What auth-svc reaches outside itself; tests pass simulators or fakes.
    struct Dependencies: Sendable {
        var hasher: PasswordHasher
        var market: MarketClient
        /// push-svc, told of the device tokens logins came with.
        var push: EventClient<DeviceTokenEvent>
        var appleKeys: JWKSClient
        var http: HTTPClient
        /// Apple's token and revocation endpoints (sign-in by code).
        var appleTokens: AppleTokenClient
        /// The services keeping copies of users, told of changes.
        var usersChanged: UsersChangedClient
    }

    static func assemble(
        common: CommonConfiguration, configuration: AuthConfiguration, logger: Logger, engine: StoreEngine,
        signingKey: SigningKey, dependencies: Dependencies, services: [any Service] = [], seedDevelopmentApp: Bool = false
    ) async throws -> ServiceAssembly {
        // Replicas on one PostgreSQL database must share this file's key (refresh tokens' MAC).
        let sealing = try SealingKey.loadOrCreate(at: configuration.sealingKeyPath)
        let stores = try AuthStores(engine, rules: RefreshRules(configuration: configuration, sealing: sealing))
        var apps = AppService(store: stores.apps)
        if seedDevelopmentApp { try await createDevelopmentAppIfEmpty(apps, key: configuration.developmentAppKey) }
        let users = stores.users
        let accountStore = stores.accounts
        // auth-svc verifies its own tokens with its own key and hears of bans from its own
        // store: no HTTP round trip.
        let revocations = RevocationList()
        let bans = BanService(store: stores.bans, board: BanBoard(engine: engine), list: revocations)
        apps.announce = { try await bans.announce() }
        let verifier = AccessTokenVerifier(jwks: JWKSClient { signingKey.jwks }, revocations: revocations)
        let revocationWatcher = RevocationWatcher(list: revocations, feed: bans.feed, logger: logger)
        let tokens = TokenIssuer(
            signer: try AccessTokenSigner(key: signingKey.privateKey, keyID: signingKey.keyID),
            accessLifetime: configuration.accessTokenLifetime, verifier: verifier
        )
        let appleGrants = AppleGrantRevoker(apps: apps, apple: dependencies.appleTokens, sealing: sealing, logger: logger)
        let relay = OutboxRelay(store: stores.outbox, logger: logger) { message in
            switch message.topic {
            case PaymentGrantEvent.topic: _ = try await dependencies.market.grantCoins(try JSONText.decode(message.payload).orThrow())
            case AccountRevokedEvent.topic: try await dependencies.market.accountRevoked(try JSONText.decode(message.payload).orThrow())
            case AppleRevocation.topic: try await appleGrants.revoke(try JSONText.decode(message.payload).orThrow())
            default: try await dependencies.push.send(try JSONText.decode(message.payload).orThrow())
            }
        }
        let accounts = AccountService(
            accounts: accountStore, users: users, tokens: tokens, hasher: dependencies.hasher, apps: apps, verifier: verifier,
            relay: relay, usersChanged: dependencies.usersChanged, bans: bans
        )
        let files = configuration.files.backend(dataDirectory: common.dataDirectory, logger: logger)
        let images = FileStore(backend: files, service: .auth, area: "profiles")
        let profiles = ProfileService(
            store: stores.profiles, users: users, market: dependencies.market, images: images,
            usersChanged: dependencies.usersChanged)
        let social = SocialLoginVerifier(
            apps: apps, appleKeys: KeySetCache(jwks: dependencies.appleKeys, refetchInterval: .seconds(60)),
            appleIssuer: configuration.appleIssuer, kakaoAPIURL: configuration.kakaoAPIURL, http: dependencies.http
        )
        let accountRoutes = AccountRoutes(accounts: accounts, users: users, social: social, slpSignupCoins: configuration.slpSignupCoins)
        let meRoutes = MeRoutes(profiles: profiles, users: users, market: dependencies.market)
        let profileRoutes = ProfileRoutes(profiles: profiles, images: images)
        let nicknames = NicknameGenerator(users: users)
        let appleSignIn = AppleCodeSignIn(
            apps: apps, apple: dependencies.appleTokens, social: social, accounts: accounts, grants: stores.appleGrants,
            sealing: sealing, nicknames: nicknames, logger: logger
        )
        let quotehubRoutes = QuotehubAuthRoutes(users: users, nicknames: nicknames, apple: appleSignIn, accounts: accounts)
        let internalRoutes = InternalRoutes(
            apps: apps, users: users, profiles: profiles, bans: bans, reports: ReportQueue(store: stores.reportQueue),
            operators: OperatorUserService(store: stores.userAdmin, users: users, bans: bans, accounts: accounts), signingKey: signingKey)
        return ServiceApplication.assemble(
            configuration: common, logger: logger,
            healthCheck: {
                try await engine.health(); try await files.check()
            },
            services: engine.services + services + files.services + [relay, bans.board, revocationWatcher]
        ) { group in
            let protected = group.group()
                .add(middleware: AccessTokenMiddleware(verifier: verifier))
                .add(middleware: SessionCheckMiddleware(sessions: accountStore))
            internalRoutes.register(on: group)
            accountRoutes.register(public: group, protected: protected)
            profileRoutes.register(public: group, protected: protected)
            meRoutes.register(protected: protected)
            quotehubRoutes.register(public: group, protected: protected)
            QuotehubProfileRoutes(users: users, profiles: profiles, images: images).register(public: group, protected: protected)
            QuotehubBlockReportRoutes(users: users, profiles: profiles).register(protected: protected)
        }
    }

    /// A fresh installation gets one app so the suite is usable at once; its key is printed
    /// (not logged) because the newcomer needs it for the first request.
    static func createDevelopmentAppIfEmpty(_ apps: AppService, key: String?) async throws {
        guard try await apps.count() == 0,
            let app = try await apps.createFirst(name: "Development", profile: .lslp, flags: AppFlags(), key: key)
        else { return }
        FileHandle.standardOutput.write(Data("Development app created. SeSACKey: \(app.apiKey)\n".utf8))
    }

    /// `auth-svc apps …`: the registry from the command line, on the service's own store (the
    /// file in `dataDirectory`, or the PostgreSQL database `databaseURL` names).
    package static func openAdmin(dataDirectory: String, databaseURL: String? = nil) async throws -> AppAdmin {
        let path = dataDirectory + "/" + ServiceName.auth.rawValue + ".sqlite"
        let engine = try await AuthStores.open(databaseURL: databaseURL, sqlitePath: path, logger: Logger(label: "auth-svc apps"))
        return AppAdmin(apps: AppService(store: try AuthStores.apps(on: engine)))
    }
}
