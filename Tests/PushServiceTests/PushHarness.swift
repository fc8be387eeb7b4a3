import AsyncHTTPClient
import Contracts
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import NIOSSL
import SQLiteStorage
import ServiceKit
import Storage
import TestSupport
import XCTest

@testable import PushService

/// push-svc in process, delivering to the FCM and APNs simulators with its real clients.
struct PushHarness {
    static let appID = "app-push"
    static let alice = "6740369b3a36e82f532ec721", bob = "6740369b3a36e82f532ec722", carol = "6740369b3a36e82f532ec723"

    let app: Application<RouterResponder<GlintRequestContext>>
    let keys: TestKeys
    let fcm: FCMSimulator
    let apns: APNsSimulator
    /// The service's own store (SQLite, or PostgreSQL when the run sets `GLINT_TEST_ENGINE`).
    let engine: StoreEngine

    /// The HTTP/2 client trusting the APNs simulators' certificate, for the whole test run.
    static let apnsHTTP: Result<HTTPClient, any Error> = Result {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates([try NIOSSLCertificate(bytes: Array(try APNsSimulator.sharedCertificatePEM.utf8), format: .pem)])]
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
    }

    /// `engine` and `fcm`: another replica's database and FCM (by default the run's engine and a simulator of its own).
    static func make(userTopics: Bool = false, engine: StoreEngine? = nil, fcm: FCMSimulator? = nil) async throws -> PushHarness {
        let keys = await TestKeys.make(), apns = try await APNsSimulator.start()
        let fcm = if let fcm { fcm } else { try await FCMSimulator.start() }
        let common = TestEnvironment.common(.push, dataDirectory: try TestEnvironment.temporaryDirectory())
        let engine: StoreEngine =
            if let engine { engine } else {
                try await TestEngine.open(
                    sqlite: { StoreEngine.sqlite(try DatabaseFactory.openPool(at: common.databasePath, migrator: PushMigrations.migrator)) },
                    postgres: { pool in
                        try await pool.migrate(PushPostgresMigrations.all); return StoreEngine.postgres(pool)
                    }
                )
            }
        let account = try JSONDecoder().decode(FCMClient.ServiceAccount.self, from: Data(fcm.serviceAccountJSON.utf8))
        let client = try await FCMClient(http: .shared, baseURL: fcm.url, account: account, logger: TestEnvironment.logger)
        let apnsClient = try await APNsClient(
            http: try apnsHTTP.get(), baseURL: apns.url,
            credentials: .init(
                keyPEM: apns.authKeyPEM, keyID: APNsSimulator.keyID, teamID: APNsSimulator.teamID, topic: APNsSimulator.topic))
        let app = try PushAssembly.assemble(
            common: common, logger: TestEnvironment.logger, engine: engine, userTopics: userTopics,
            dependencies: .init(jwks: JWKSClient { keys.jwks }, sender: .live(fcm: client, apns: apnsClient))
        ).application()
        return PushHarness(app: app, keys: keys, fcm: fcm, apns: apns, engine: engine)
    }

    func headers(_ user: String = alice, session: String = "session-1") async throws -> HTTPFields {
        TestEnvironment.fields(
            app: Self.appID,
            extra: [
                ("Authorization", try await keys.token(user: user, app: Self.appID, session: session)),
                ("content-type", "application/json"),
            ])
    }

    /// The deliveries in a state.
    func deliveries(_ state: String) async throws -> Int {
        try await engine.values(Int.self, "SELECT COUNT(*) FROM delivery WHERE state = '\(state)'").first ?? 0
    }

    func devices() async throws -> [String: String] {
        let rows = try await engine.values(String.self, "SELECT token || ' ' || user_id FROM device")
        return Dictionary(uniqueKeysWithValues: rows.map { row in (String(row.prefix { $0 != " " }), String(row.drop { $0 != " " }.dropFirst())) })
    }

    /// Waits until the simulator has received `count` messages (and answers them).
    func received(_ count: Int, within seconds: Int = 15) async -> [FCMSimulator.Delivery] {
        await HTTPProbe.eventually(within: .seconds(seconds)) { () -> [FCMSimulator.Delivery]? in
            let received = fcm.received
            return received.count >= count ? received : nil
        } ?? fcm.received
    }
}
