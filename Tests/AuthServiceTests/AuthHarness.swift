import AsyncHTTPClient
import Contracts
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PostgresNIO
import SQLiteStorage
import ServiceClients
import ServiceKit
import Storage
import Synchronization
import TestSupport
import XCTest

@testable import AuthService

/// auth-svc built as its executable builds it, on a temporary folder, with bcrypt cost 4 and the
/// provider simulators' URLs.
struct AuthHarness {
    let app: Application<RouterResponder<GlintRequestContext>>
    let apps: AppService
    let signingKey: SigningKey
    let dataDirectory: String
    let appID: String
    /// push-svc's side of the outbox: the device tokens it was told of.
    let push: EventRecorder<DeviceTokenEvent>
    /// market-svc's side: the revoked accounts whose content it was told to remove.
    let revokedAccounts: EventRecorder<AccountRevokedEvent>
    /// market-svc's and chat-svc's side: the users they were told changed (their copies dropped).
    let usersChanged: EventRecorder<String>
    /// The service's own store (SQLite, or PostgreSQL when the run sets `GLINT_TEST_ENGINE`), for
    /// what a test must see or set behind the API.
    let engine: StoreEngine
    let stores: AuthStores

    static func make(
        accessLifetime: TimeInterval = 900, reuseGrace: TimeInterval = 10, appFlags: AppFlags = AppFlags(),
        appleClientIDs: [String] = [], kakaoAppID: String = "", apple: AppleSimulator? = nil, kakao: KakaoSimulator? = nil,
        postIDs: [String] = [], market: MarketClient? = nil
    ) async throws -> AuthHarness {
        let directory = try TestEnvironment.temporaryDirectory()
        let common = TestEnvironment.common(.auth, dataDirectory: directory)
        var configuration = AuthConfiguration(signingKeyPath: directory + "/key.pem", sealingKeyPath: directory + "/auth-sealing.key", bcryptCost: 4)
        configuration.accessTokenLifetime = accessLifetime
        configuration.refreshReuseGrace = reuseGrace
        configuration.kakaoAPIURL = kakao?.url ?? "http://127.0.0.1:9"
        let engine: StoreEngine = try await TestEngine.open(
            sqlite: { StoreEngine.sqlite(try DatabaseFactory.openPool(at: common.databasePath, migrator: AuthMigrations.migrator)) },
            postgres: { pool in
                try await pool.migrate(AuthPostgresMigrations.all); return StoreEngine.postgres(pool)
            }
        )
        let signingKey = try SigningKey.loadOrCreate(at: configuration.signingKeyPath)
        let keysURL = apple?.keysURL ?? "http://127.0.0.1:9/auth/keys"
        let push = EventRecorder<DeviceTokenEvent>()
        // market-svc's wallet: once per grant key, as market-svc grants (the join grants ahead of
        // the outbox, and the outbox again).
        let coins = Mutex((balance: 0, granted: Set<String>()))
        let revoked = EventRecorder<AccountRevokedEvent>()
        let usersChanged = EventRecorder<String>()
        var fakeMarket = MarketClient.unimplemented
        fakeMarket.postIDs = { _, _, _ in postIDs }
        fakeMarket.coins = { _, _, _ in coins.withLock { $0.balance } }
        fakeMarket.grantCoins = { grant in
            coins.withLock { if $0.granted.insert(grant.impUID).inserted { $0.balance += grant.coins } }
            return CoinGrantAnswer(coins: coins.withLock { $0.balance }, granted: true)
        }
        fakeMarket.accountRevoked = revoked.client.send
        let dependencies = AuthAssembly.Dependencies(
            hasher: .bcrypt(cost: 4),
            market: market ?? fakeMarket,
            push: push.client,
            appleKeys: .http(url: keysURL, client: .shared),
            http: .shared,
            appleTokens: apple.map { .live(tokenURL: $0.tokenURL, revokeURL: $0.revokeURL, http: .shared) } ?? .unimplemented,
            usersChanged: usersChangedClient(usersChanged)
        )
        let app = try await AuthAssembly.assemble(
            common: common, configuration: configuration, logger: TestEnvironment.logger, engine: engine,
            signingKey: signingKey, dependencies: dependencies
        ).application()
        let rules = RefreshRules(configuration: configuration, sealing: try SealingKey.loadOrCreate(at: configuration.sealingKeyPath))
        let stores = try AuthStores(engine, rules: rules)
        let apps = AppService(store: stores.apps)
        let registered = try await apps.create(
            name: "Test", profile: .lslp, flags: appFlags, key: "test-app-key", appleClientIDs: appleClientIDs, kakaoAppID: kakaoAppID
        )
        return AuthHarness(
            app: app, apps: apps, signingKey: signingKey, dataDirectory: directory, appID: registered.id, push: push, revokedAccounts: revoked,
            usersChanged: usersChanged, engine: engine, stores: stores)
    }

    static func usersChangedClient(_ recorder: EventRecorder<String>) -> UsersChangedClient {
        UsersChangedClient { userID, _, _ in recorder.received.withLock { $0.append(userID) } }
    }

    var usersChangedClient: UsersChangedClient { Self.usersChangedClient(usersChanged) }

    /// One column of what `sql` selects in the service's own store, whichever engine it runs on;
    /// `{user}` names the users' table (`user` on SQLite, `app_user` on PostgreSQL).
    func values<Value: DatabaseValueConvertible & PostgresDecodable & Sendable>(_ type: Value.Type, _ sql: String) async throws -> [Value] {
        try await engine.values(type, sql.replacingOccurrences(of: "{user}", with: onPostgres ? "app_user" : "user"))
    }

    var onPostgres: Bool { engine.isPostgres }

    /// Headers of a request the gateway forwards for this app, plus the caller's own.
    func headers(token: String? = nil, _ extra: [(String, String)] = []) -> HTTPFields {
        TestEnvironment.fields(app: appID, extra: (token.map { [("Authorization", $0)] } ?? []) + extra)
    }

    /// A token for an existing session that expired `ago` seconds ago (genuine signature).
    func expiredToken(for auth: AuthAnswer, ago: TimeInterval = 5) async throws -> String {
        let claims = try XCTUnwrap(Self.claims(of: auth.accessToken))
        let signer = try AccessTokenSigner(key: signingKey.privateKey, keyID: signingKey.keyID)
        let past = Date().addingTimeInterval(-ago)
        return try signer.sign(
            AccessTokenClaims(
                userID: claims.sub.value, appID: claims.app, sessionID: claims.sid, issuedAt: past.addingTimeInterval(-60), expiresAt: past
            ))
    }

    static func claims(of token: String) -> AccessTokenClaims? {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let data = Base64URL.decode(parts[1]) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(AccessTokenClaims.self, from: data)
    }
}

extension TestClientProtocol {
    /// POST/PUT a JSON body.
    func send(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields, json: some Encodable) async throws -> TestResponse {
        var fields = headers
        fields[.contentType] = "application/json"
        return try await execute(uri: uri, method: method, headers: fields, body: JSONCoding.encode(json))
    }

    func join(_ harness: AuthHarness, email: String, password: String = "pass1234!", nick: String = "jack") async throws -> AuthAnswer {
        let response = try await send(
            .post, "/v1/users/join", headers: harness.headers(), json: JoinRequest(email: email, password: password, nick: nick))
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try JSONDecoder().decode(AuthAnswer.self, from: response.body)
    }
}

/// Any JSON object body, for requests the typed DTOs cannot express (missing keys, wrong types).
struct RawJSON: Encodable {
    let object: [String: String]
    init(_ object: [String: String]) { self.object = object }
    func encode(to encoder: any Encoder) throws { try object.encode(to: encoder) }
}
