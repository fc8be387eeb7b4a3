import Contracts
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import SQLiteStorage
import ServiceKit
import Storage
import TestSupport
import XCTest

@testable import AuthService

final class AppsRegistryTests: XCTestCase {
    func makeFixture() async throws -> AuthHarness {
        try await AuthHarness.make()
    }

    func testResolveAnswersAppInfoKeyByKey() async throws {
        let fixture = try await makeFixture()
        let created = try await fixture.apps.create(
            name: "GLINT", profile: .lslp, flags: AppFlags(refreshWithAccessTokenOnly: true, emptyAuthErrorBodies: true), key: "glint-released-key"
        )
        try await fixture.app.contractTest { client in
            func resolve(
                _ body: String, headers: HTTPFields = TestEnvironment.fields(app: nil, extra: [("content-type", "application/json")])
            ) async throws -> TestResponse {
                try await client.execute(uri: "/internal/apps/resolve", method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            let found = try await resolve(#"{"key":"glint-released-key"}"#)
            XCTAssertEqual(found.status, .ok)
            JSON.assertKeys(try JSON.object(found.body), ["app"])
            let object = try XCTUnwrap(try JSON.object(found.body)["app"] as? [String: Any])
            JSON.assertKeys(object, ["app_id", "name", "profile", "flags"])
            XCTAssertEqual(object["app_id"] as? String, created.id)
            XCTAssertEqual(object["profile"] as? String, "lslp")
            XCTAssertEqual(
                object["flags"] as? [String: Bool],
                [
                    "refresh_with_access_token_only": true, "empty_auth_error_bodies": true, "socket_auth_optional": false,
                ])
            let unknown = try await resolve(#"{"key":"nope"}"#)
            XCTAssertEqual(unknown.status, .notFound)
            XCTAssertEqual(try JSON.object(unknown.body)["code"] as? String, "not_found")
            let empty = try await resolve(#"{"key":""}"#)
            XCTAssertEqual(empty.status, .badRequest)
            let missing = try await resolve("{}")
            XCTAssertEqual(missing.status, .badRequest)
            let outsider = try await resolve(#"{"key":"glint-released-key"}"#, headers: [.contentType: "application/json"])
            XCTAssertEqual(outsider.status, .forbidden)
        }
    }

    /// Operators' app management (admin-svc calls these): a rotated-out key opens the app until
    /// its grace ends and says so; a disabled app's keys and mount open nothing; settings change.
    func testRotationGraceDisablingAndSettings() async throws {
        let fixture = try await makeFixture()
        let created = try await fixture.apps.create(name: "QuoteHub", profile: .quotehub, flags: AppFlags(), key: "old-key-123", mount: "qh")
        try await fixture.app.contractTest { client in
            let headers = TestEnvironment.fields(app: nil, extra: [("content-type", "application/json")])
            func post(_ path: String, _ body: String) async throws -> TestResponse {
                try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            func expect(_ path: String, _ body: String, _ status: HTTPResponse.Status, line: UInt = #line) async throws {
                let answer = try await post(path, body)
                XCTAssertEqual(answer.status, status, answer.body.text, line: line)
            }
            let rotated = try await post("/internal/app-details/\(created.id)/rotate-key", #"{"graceSeconds":3600}"#)
            XCTAssertEqual(rotated.status, .ok, rotated.body.text)
            let issued = try JSONCoding.decoder.decode(AppKeyIssued.self, from: rotated.body)
            XCTAssertNotEqual(issued.key, "old-key-123")
            XCTAssertEqual(issued.app.keyHint, String(issued.key.suffix(4)))
            XCTAssertEqual(issued.app.previousKeyHint, "-123")
            JSON.assertKeys(
                try XCTUnwrap(try JSON.object(rotated.body)["app"] as? [String: Any]),
                [
                    "id", "name", "profile", "mount", "flags", "appleClientIds", "kakaoAppId", "keyHint", "previousKeyHint",
                    "previousKeyExpiresAt", "disabled", "createdAt",
                ])

            let old = try JSONCoding.decoder.decode(
                ResolvedAppKey.self, from: try await post("/internal/apps/resolve", #"{"key":"old-key-123"}"#).body)
            XCTAssertEqual(old.app.appID, created.id)
            let graceEnd = try XCTUnwrap(old.validUntil, "a rotated-out key says until when")
            XCTAssertEqual(Double(graceEnd - GlintDate.nowMilliseconds()) / 1000, 3600, accuracy: 60)
            let new = try JSONCoding.decoder.decode(
                ResolvedAppKey.self, from: try await post("/internal/apps/resolve", #"{"key":"\#(issued.key)"}"#).body)
            XCTAssertNil(new.validUntil)
            let afterGrace = try await fixture.apps.store.app(key: "old-key-123", at: graceEnd + 1)
            XCTAssertNil(afterGrace, "past its grace the old key opens nothing")
            try await expect("/internal/apps/resolve", #"{"key":"old-key-123"}"#, .ok)

            // A second rotation without grace: the key of the first stops at once.
            let again = try JSONCoding.decoder.decode(
                AppKeyIssued.self, from: try await post("/internal/app-details/\(created.id)/rotate-key", #"{"graceSeconds":0}"#).body)
            try await expect("/internal/apps/resolve", #"{"key":"old-key-123"}"#, .notFound)
            try await expect("/internal/apps/resolve", #"{"key":"\#(issued.key)"}"#, .notFound)
            try await expect("/internal/apps/resolve", #"{"key":"\#(again.key)"}"#, .ok)
            try await expect("/internal/app-details/\(created.id)/rotate-key", #"{"graceSeconds":-1}"#, .badRequest)

            let disabled = try await post("/internal/app-details/\(created.id)/disabled", #"{"disabled":true}"#)
            XCTAssertEqual(try JSONCoding.decoder.decode(AppDetail.self, from: disabled.body).disabled, true)
            try await expect("/internal/apps/resolve", #"{"key":"\#(again.key)"}"#, .notFound)
            try await expect("/internal/apps/by-mount", #"{"mount":"qh"}"#, .notFound)
            _ = try await post("/internal/app-details/\(created.id)/disabled", #"{"disabled":false}"#)
            try await expect("/internal/apps/by-mount", #"{"mount":"qh"}"#, .ok)

            let changed = try await post(
                "/internal/app-details/\(created.id)",
                #"{"flags":{"refresh_with_access_token_only":false,"empty_auth_error_bodies":true,"socket_auth_optional":false},"appleClientIds":["com.example.qh"],"kakaoAppId":"12345"}"#
            )
            XCTAssertEqual(changed.status, .ok, changed.body.text)
            let detail = try JSONCoding.decoder.decode(AppDetail.self, from: changed.body)
            XCTAssertEqual(detail.appleClientIds, ["com.example.qh"])
            XCTAssertEqual(detail.kakaoAppId, "12345")
            XCTAssertTrue(detail.flags.emptyAuthErrorBodies)
            let badKakao = try await post(
                "/internal/app-details/\(created.id)",
                #"{"flags":{"refresh_with_access_token_only":false,"empty_auth_error_bodies":false,"socket_auth_optional":false},"appleClientIds":[],"kakaoAppId":"abc"}"#
            )
            XCTAssertEqual(badKakao.status, .badRequest)

            let registered = try await post(
                "/internal/app-details",
                #"{"name":"New","profile":"slp","settings":{"flags":{"refresh_with_access_token_only":false,"empty_auth_error_bodies":false,"socket_auth_optional":false},"appleClientIds":[],"kakaoAppId":""}}"#
            )
            XCTAssertEqual(registered.status, .ok, registered.body.text)
            let fresh = try JSONCoding.decoder.decode(AppKeyIssued.self, from: registered.body)
            try await expect("/internal/apps/resolve", #"{"key":"\#(fresh.key)"}"#, .ok)
            let taken = try await post(
                "/internal/app-details",
                #"{"name":"Copy","profile":"lslp","key":"\#(fresh.key)","settings":{"flags":{"refresh_with_access_token_only":false,"empty_auth_error_bodies":false,"socket_auth_optional":false},"appleClientIds":[],"kakaoAppId":""}}"#
            )
            XCTAssertEqual(taken.status, .conflict)
            let list = try JSONCoding.decoder.decode(
                [AppDetail].self, from: try await client.execute(uri: "/internal/app-details", method: .get, headers: headers).body)
            XCTAssertEqual(list.map(\.name).suffix(2), ["QuoteHub", "New"], "oldest first")
        }
    }

    func testJWKSVerifiesTokensOfTheSigningKey() async throws {
        let fixture = try await makeFixture()
        try await fixture.app.contractTest { client in
            let response = try await client.execute(uri: "/.well-known/jwks.json", method: .get, headers: TestEnvironment.fields(app: nil))
            XCTAssertEqual(response.status, .ok)
            let keys = try XCTUnwrap(try JSON.object(response.body)["keys"] as? [[String: Any]])
            XCTAssertEqual(keys.count, 1)
            XCTAssertEqual(keys[0]["kty"] as? String, "EC")
            XCTAssertEqual(keys[0]["crv"] as? String, "P-256")
            XCTAssertEqual(keys[0]["alg"] as? String, "ES256")
            XCTAssertEqual(keys[0]["kid"] as? String, fixture.signingKey.keyID)
            XCTAssertNil(keys[0]["d"], "never the private part")

            let jwks = try JSONCoding.decoder.decode(JWKS.self, from: response.body)
            let verifier = AccessTokenVerifier(jwks: JWKSClient { jwks })
            let signer = try AccessTokenSigner(key: fixture.signingKey.privateKey, keyID: fixture.signingKey.keyID)
            let token = try signer.sign(AccessTokenClaims(userID: "u", appID: "a", sessionID: "s", issuedAt: Date(), expiresAt: Date() + 60))
            let user = try await verifier.verify(token)
            XCTAssertEqual(user.userID, "u")
        }
    }

    func testSigningKeyIsKeptAcrossStartsAndPrivate() throws {
        let path = try TestEnvironment.temporaryDirectory() + "/keys/signing.pem"
        let first = try SigningKey.loadOrCreate(at: path)
        let second = try SigningKey.loadOrCreate(at: path)
        XCTAssertEqual(first.keyID, second.keyID)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testDevelopmentAppOnlyOnAnEmptyRegistry() async throws {
        let apps = try await AuthAssembly.openAdmin(dataDirectory: try TestEnvironment.temporaryDirectory()).apps
        try await AuthAssembly.createDevelopmentAppIfEmpty(apps, key: "dev-key-1234")
        try await AuthAssembly.createDevelopmentAppIfEmpty(apps, key: "dev-key-5678")
        let all = try await apps.all()
        XCTAssertEqual(all.map(\.apiKey), ["dev-key-1234"])
        XCTAssertEqual(all.first?.profile, .lslp)
    }

    /// Replicas starting together on an empty registry (the run's engine): one development app, not one each.
    func testConcurrentStartsMakeOneDevelopmentApp() async throws {
        let path = try TestEnvironment.temporaryDirectory() + "/auth-svc.sqlite"
        let engine: StoreEngine = try await TestEngine.open(
            sqlite: { StoreEngine.sqlite(try DatabaseFactory.openPool(at: path, migrator: AuthMigrations.migrator)) },
            postgres: { pool in
                try await pool.migrate(AuthPostgresMigrations.all); return StoreEngine.postgres(pool)
            }
        )
        let apps = AppService(store: try AuthStores.apps(on: engine))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for replica in 0..<8 {
                group.addTask { try await AuthAssembly.createDevelopmentAppIfEmpty(apps, key: "dev-key-replica-\(replica)") }
            }
            try await group.waitForAll()
        }
        let all = try await apps.all()
        XCTAssertEqual(all.count, 1, all.map(\.apiKey).joined(separator: ", "))
        XCTAssertEqual(all.first?.name, "Development")
    }

    func testAdminCreateAndList() async throws {
        let directory = try TestEnvironment.temporaryDirectory()
        let admin = try await AuthAssembly.openAdmin(dataDirectory: directory)
        let line = try await admin.create(name: "Freeworkers", profile: .slp, flags: AppFlags(socketAuthOptional: true), key: "fw-key-0001")
        XCTAssertTrue(line.contains("SeSACKey: fw-key-0001"), line)
        let generated = try await admin.create(name: "DogWalk", profile: .lslp, flags: AppFlags(), key: nil)
        XCTAssertTrue(generated.contains("SeSACKey: glint_"), generated)
        do {
            _ = try await admin.create(name: "Again", profile: .lslp, flags: AppFlags(), key: "fw-key-0001")
            XCTFail("duplicate key accepted")
        } catch let error as ServiceError {
            XCTAssertEqual(error.code, .conflict)
        }
        for bad in ["short", "has space in it", String(repeating: "k", count: 200)] {
            do {
                _ = try await admin.create(name: "Bad", profile: .lslp, flags: AppFlags(), key: bad)
                XCTFail("accepted key \(bad)")
            } catch let error as ServiceError {
                XCTAssertEqual(error.code, .badRequest)
            }
        }
        let listed = try await admin.list()
        XCTAssertEqual(listed.count, 2)
        XCTAssertTrue(listed[0].contains("Freeworkers  slp  [socket_auth_optional]  fw-key-0001"), listed[0])
    }

    func testHealth() async throws {
        try await HealthContract.check(try await makeFixture().app, service: .auth)
    }

    /// Quotehub apps are named by a mount (API.md §9): required, well-formed, unreserved, unique.
    func testMountedApps() async throws {
        let directory = try TestEnvironment.temporaryDirectory()
        let admin = try await AuthAssembly.openAdmin(dataDirectory: directory)
        let line = try await admin.create(name: "QuoteHub", profile: .quotehub, flags: AppFlags(), key: nil, mount: "quotehub")
        XCTAssertTrue(line.contains("mounted at /quotehub/"), line)
        for (label, mount) in [("no mount", nil), ("reserved", "v1"), ("uppercase", "QuoteHub"), ("slash", "a/b"), ("taken", "quotehub")]
            as [(String, String?)]
        {
            do {
                _ = try await admin.create(name: "Other", profile: .quotehub, flags: AppFlags(), key: nil, mount: mount)
                XCTFail("accepted: \(label)")
            } catch let error as ServiceError {
                XCTAssertEqual(error.code, label == "taken" ? .conflict : .badRequest, label)
            }
        }
        let listed = try await admin.list()
        XCTAssertTrue(listed[0].hasSuffix("  /quotehub/"), listed[0])
    }

    /// The app table is rebuilt for the quotehub profile: existing apps and their users survive.
    func testTheMountMigrationKeepsAppsAndUsers() throws {
        let queue = try DatabaseQueue(path: try TestEnvironment.temporaryDirectory() + "/auth.sqlite")
        try AuthMigrations.migrator.migrate(queue, upTo: "v3-outbox")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO app (id, name, api_key, profile, created_at) VALUES ('a1', 'Old', 'old-app-key', 'slp', 1)")
            try db.execute(
                sql: """
                    INSERT INTO user (id, app_id, email, email_key, nick, nick_key, created_at, updated_at)
                    VALUES ('u1', 'a1', 'a@b.c', 'a@b.c', 'n', 'n', 1, 1)
                    """)
        }
        try AuthMigrations.migrator.migrate(queue)
        try queue.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT api_key FROM app"), ["old-app-key"])
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT id FROM user"), ["u1"], "users are not cascaded away")
            XCTAssertEqual(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count, 0)
        }
        try queue.write { db in
            try db.execute(sql: "DELETE FROM app WHERE id = 'a1'")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user"), 0, "and still belong to their app")
        }
    }
}
