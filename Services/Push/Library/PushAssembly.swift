import AsyncHTTPClient
import Contracts
import Foundation
import Hummingbird
import Logging
import NIOSSL
import ServiceKit
import ServiceLifecycle
import Storage

/// Device tokens, the notification outbox and delivery over FCM and APNs (API.md §6).
package enum PushAssembly {
    /// The SQLite migrations this build knows, in order (a snapshot with others is from a newer build).
    package static var sqliteMigrations: [String] { PushMigrations.migrator.migrations }
    /// The PostgreSQL migrations this build knows, in order.
    package static var postgresMigrations: [String] { PushPostgresMigrations.all.map(\.name) }

    /// An app's records as `glint app export` takes them: its devices. Left out: notifications
    /// and their deliveries (a log of what was sent).
    package static let exportedTables = [ExportedTable("device")]

    /// push-svc's store as its settings name it, migrated (commands that read it).
    package static func openStore(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await StoreEngine.open(
            databaseURL: databaseURL, sqlitePath: sqlitePath, sqlite: PushMigrations.migrator, postgres: PushPostgresMigrations.all, logger: logger)
    }

    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) async throws -> ServiceAssembly {
        let databaseURL = try reader.databaseURL(PushSettings.databaseURL)
        let (accountPath, fcmURL) = (try reader.string(PushSettings.fcmServiceAccount), try reader.url(PushSettings.fcmURL))
        let (keyPath, caPath, apnsURL) = (
            try reader.string(PushSettings.apnsKeyFile), try reader.string(PushSettings.apnsTrustedCA), try reader.url(PushSettings.apnsURL)
        )
        let (keyID, teamID, topic) = (
            try reader.string(PushSettings.apnsKeyID), try reader.string(PushSettings.apnsTeamID), try reader.string(PushSettings.apnsTopic)
        )
        let userTopics = try reader.bool(PushSettings.fcmUserTopics)
        if !keyPath.isEmpty, keyID.isEmpty || teamID.isEmpty || topic.isEmpty {
            try reader.refuse(PushSettings.apnsKeyFile, "needs PUSH_APNS_KEY_ID, PUSH_APNS_TEAM_ID and PUSH_APNS_TOPIC", standIn: ())
        }
        try reader.finish()
        let engine = try await openStore(databaseURL: databaseURL, sqlitePath: common.databasePath, logger: logger)
        let http = HTTPClientService.make()
        let client = InternalClient(http: http.client, configuration: common)
        var services: [any Service] = [http]
        var fcm: FCMClient?
        if !accountPath.isEmpty {
            let account: FCMClient.ServiceAccount
            do {
                account = try JSONDecoder().decode(FCMClient.ServiceAccount.self, from: Data(contentsOf: URL(fileURLWithPath: accountPath)))
            } catch {
                throw ConfigurationError(variable: PushSettings.fcmServiceAccount.name, problem: "not a readable service-account JSON (\(error))")
            }
            fcm = try await FCMClient(http: http.client, baseURL: fcmURL, account: account, logger: logger)
        } else {
            logger.warning("FCM delivery disabled: \(PushSettings.fcmServiceAccount.name) is not set")
        }
        var apns: APNsClient?
        if !keyPath.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            if !caPath.isEmpty { tls.additionalTrustRoots = [.file(caPath)] }
            // Its own client: HTTP/2 to one host, with the extra trust root if any.
            let apnsHTTP = HTTPClientService(client: HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls)))
            services.append(apnsHTTP)
            let credentials = APNsClient.Credentials(
                keyPEM: try String(contentsOfFile: keyPath, encoding: .utf8), keyID: keyID, teamID: teamID, topic: topic
            )
            apns = try await APNsClient(http: apnsHTTP.client, baseURL: apnsURL, credentials: credentials)
        } else {
            logger.warning("APNs delivery disabled: \(PushSettings.apnsKeyFile.name) is not set")
        }
        return try assemble(
            common: common, logger: logger, engine: engine, userTopics: userTopics,
            dependencies: Dependencies(jwks: .live(client: client), revocations: .live(client: client), sender: .live(fcm: fcm, apns: apns)),
            services: services)
    }

    /// What push-svc is given; tests pass a sender of their own or simulator-backed clients.
    struct Dependencies: Sendable {
        var jwks: JWKSClient
        /// auth-svc's bans, long-polled: a banned user's devices get no pushes.
        var revocations: RevocationFeed = .none
        var sender: PushSender
    }

    static func assemble(
        common: CommonConfiguration, logger: Logger, engine: StoreEngine, userTopics: Bool = false, dependencies: Dependencies,
        services: [any Service] = []
    ) throws -> ServiceAssembly {
        let (devices, notifications, deliveries): (any DeviceStore, any NotificationStore, any DeliveryStore) =
            switch engine {
            case .sqlite(let database):
                (SQLiteDeviceStore(database: database), SQLiteNotificationStore(database: database), SQLiteDeliveryStore(database: database))
            case .postgres(let pool): (PostgresDeviceStore(pool: pool), PostgresNotificationStore(pool: pool), PostgresDeliveryStore(pool: pool))
            }
        let worker = DeliveryWorker(store: deliveries, sender: dependencies.sender, logger: logger)
        let (verifier, bans, banList) = AccessTokenVerifier.watching(jwks: dependencies.jwks, revocations: dependencies.revocations, logger: logger)
        let deviceRoutes = DeviceRoutes(devices: DeviceService(store: devices))
        let notifying = NotificationService(store: notifications, userTopics: userTopics, queued: { worker.nudge() }, bans: banList)
        let notificationRoutes = NotificationRoutes(
            notifications: notifying, stats: PushStatsService(store: notifications, notifications: notifying))
        return ServiceApplication.assemble(
            configuration: common, logger: logger, healthCheck: engine.health, services: engine.services + services + [worker, bans]
        ) { group in
            let protected = group.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
            deviceRoutes.register(internal: group, protected: protected)
            notificationRoutes.register(internal: group, protected: protected)
        }
    }
}
