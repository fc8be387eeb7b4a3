import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import ServiceKit
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
        try await fixture.app.test(.router) { client in
            func resolve(_ body: String, headers: HTTPFields = TestEnvironment.fields(app: nil, extra: [("content-type", "application/json")])) async throws -> TestResponse {
                try await client.execute(uri: "/internal/apps/resolve", method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            let found = try await resolve(#"{"key":"glint-released-key"}"#)
            XCTAssertEqual(found.status, .ok)
            let object = try JSON.object(found.body)
            JSON.assertKeys(object, ["app_id", "name", "profile", "flags"])
            XCTAssertEqual(object["app_id"] as? String, created.id)
            XCTAssertEqual(object["profile"] as? String, "lslp")
            XCTAssertEqual(object["flags"] as? [String: Bool], [
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

    func testJWKSVerifiesTokensOfTheSigningKey() async throws {
        let fixture = try await makeFixture()
        try await fixture.app.test(.router) { client in
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
            let signer = await AccessTokenSigner(key: fixture.signingKey.privateKey, keyID: fixture.signingKey.keyID)
            let token = try await signer.sign(AccessTokenClaims(userID: "u", appID: "a", sessionID: "s", issuedAt: Date(), expiresAt: Date() + 60))
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
        let apps = try AuthService.openAdmin(dataDirectory: try TestEnvironment.temporaryDirectory()).apps
        try await AuthService.createDevelopmentAppIfEmpty(apps, key: "dev-key-1234")
        try await AuthService.createDevelopmentAppIfEmpty(apps, key: "dev-key-5678")
        let all = try await apps.all()
        XCTAssertEqual(all.map(\.apiKey), ["dev-key-1234"])
        XCTAssertEqual(all.first?.profile, .lslp)
    }

    func testAdminCreateAndList() async throws {
        let directory = try TestEnvironment.temporaryDirectory()
        let admin = try AuthService.openAdmin(dataDirectory: directory)
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
}
