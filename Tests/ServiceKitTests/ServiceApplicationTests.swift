import Contracts
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

final class ServiceApplicationTests: XCTestCase {
    struct Echo: ResponseEncodable { var appID: String?; var requestID: String; var userID: String? }
    struct Input: Decodable { var name: String }
    struct Unexpected: Error {}

    private func makeApp(keys: TestKeys) throws -> some ApplicationProtocol {
        let verifier = AccessTokenVerifier(jwks: JWKSClient { keys.jwks })
        let common = TestEnvironment.common(.chat, dataDirectory: try TestEnvironment.temporaryDirectory())
        return ServiceApplication.assemble(configuration: common, logger: TestEnvironment.logger) { group in
            group.get("/echo") { _, context in Echo(appID: context.appID, requestID: context.requestID, userID: nil) }
            group.get("/bad") { _, _ -> Response in throw ServiceError.badRequest("nick is too long") }
            group.get("/boom") { _, _ -> Response in throw Unexpected() }
            group.post("/decode") { request, context -> Echo in
                let input = try await request.decode(as: Input.self, context: context)
                return Echo(appID: input.name, requestID: context.requestID, userID: nil)
            }
            group.group("/me").add(middleware: AccessTokenMiddleware(verifier: verifier)).get { _, context in
                Echo(appID: context.appID, requestID: context.requestID, userID: try context.requireUser().userID)
            }
        }.application()
    }

    func testHealthAndMetricsAreOpen() async throws {
        try await makeApp(keys: await TestKeys.make()).test(.router) { client in
            let health = try await client.execute(uri: "/health", method: .get)
            XCTAssertEqual(health.status, .ok)
            let object = try JSON.object(health.body)
            JSON.assertKeys(object, ["service", "status", "pid", "uptime_seconds"])
            XCTAssertEqual(object["service"] as? String, "chat-svc")
            XCTAssertEqual(object["status"] as? String, "ok")
            XCTAssertEqual(object["pid"] as? Int, Int(getpid()))
            _ = try await client.execute(uri: "/echo", method: .get, headers: TestEnvironment.fields())
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            XCTAssertEqual(metrics.status, .ok)
            XCTAssertTrue(metrics.body.text.contains(#"http_requests_total{method="GET",route="/echo",status="200"} 1"#), metrics.body.text)
        }
    }

    func testEverythingElseNeedsTheInternalSecret() async throws {
        try await makeApp(keys: await TestKeys.make()).test(.router) { client in
            let bare = try await client.execute(uri: "/echo", method: .get)
            XCTAssertEqual(bare.status, .forbidden)
            XCTAssertEqual(try JSON.object(bare.body) as? [String: String], ["code": "forbidden", "message": "internal endpoint"])
            let wrong = try await client.execute(uri: "/echo", method: .get, headers: [.init(InternalHeader.secret)!: "nope"])
            XCTAssertEqual(wrong.status, .forbidden)
            let good = try await client.execute(uri: "/echo", method: .get, headers: TestEnvironment.fields(app: "app-9"))
            XCTAssertEqual(good.status, .ok)
            XCTAssertEqual(try JSON.object(good.body)["appID"] as? String, "app-9")
        }
    }

    func testRequestIDIsKeptOrMade() async throws {
        try await makeApp(keys: await TestKeys.make()).test(.router) { client in
            let kept = try await client.execute(uri: "/echo", method: .get, headers: TestEnvironment.fields(extra: [("x-request-id", "abc-123")]))
            XCTAssertEqual(kept.headers[.init("x-request-id")!], "abc-123")
            XCTAssertEqual(try JSON.object(kept.body)["requestID"] as? String, "abc-123")
            let made = try await client.execute(uri: "/echo", method: .get, headers: TestEnvironment.fields(extra: [("x-request-id", "bad id\n")]))
            let id = try XCTUnwrap(made.headers[.init("x-request-id")!])
            XCTAssertTrue(ObjectID.isValid(id))
        }
    }

    func testErrorsAreCanonical() async throws {
        try await makeApp(keys: await TestKeys.make()).test(.router) { client in
            let bad = try await client.execute(uri: "/bad", method: .get, headers: TestEnvironment.fields())
            XCTAssertEqual(bad.status, .badRequest)
            XCTAssertEqual(try JSON.object(bad.body) as? [String: String], ["code": "bad_request", "message": "nick is too long"])
            let boom = try await client.execute(uri: "/boom", method: .get, headers: TestEnvironment.fields())
            XCTAssertEqual(boom.status, .internalServerError)
            XCTAssertEqual(try JSON.object(boom.body) as? [String: String], ["code": "internal", "message": "internal error"])
            let unknown = try await client.execute(uri: "/nothing", method: .get, headers: TestEnvironment.fields())
            XCTAssertEqual(unknown.status.code, 444)
            XCTAssertEqual(try JSON.object(unknown.body)["code"] as? String, "unknown_route")
            let undecodable = try await client.execute(
                uri: "/decode", method: .post, headers: TestEnvironment.fields(), body: ByteBuffer(string: "{\"nam"))
            XCTAssertEqual(undecodable.status, .badRequest)
            XCTAssertEqual(try JSON.object(undecodable.body)["code"] as? String, "bad_request")
            let trailing = try await client.execute(uri: "/echo/", method: .get, headers: TestEnvironment.fields())
            XCTAssertEqual(trailing.status, .ok, "a trailing slash is accepted")
        }
    }

    func testAccessTokenMiddleware() async throws {
        let keys = await TestKeys.make()
        try await makeApp(keys: keys).test(.router) { client in
            let token = try await keys.token(user: "u-7", app: "app-1")
            let raw = try await client.execute(uri: "/me", method: .get, headers: TestEnvironment.fields(extra: [("Authorization", token)]))
            XCTAssertEqual(raw.status, .ok)
            XCTAssertEqual(try JSON.object(raw.body)["userID"] as? String, "u-7")
            let bearer = try await client.execute(
                uri: "/me", method: .get, headers: TestEnvironment.fields(extra: [("authorization", "Bearer " + token)]))
            XCTAssertEqual(bearer.status, .ok)
            let missing = try await client.execute(uri: "/me", method: .get, headers: TestEnvironment.fields())
            XCTAssertEqual(missing.status, .unauthorized)
            XCTAssertEqual(try JSON.object(missing.body)["code"] as? String, "token_invalid")
            let otherApp = try await client.execute(
                uri: "/me", method: .get, headers: TestEnvironment.fields(app: "app-2", extra: [("Authorization", token)]))
            XCTAssertEqual(otherApp.status, .unauthorized)
            let expired = try await client.execute(
                uri: "/me", method: .get,
                headers: TestEnvironment.fields(extra: [("Authorization", try await keys.token(app: "app-1", expiresIn: -1))]))
            XCTAssertEqual(expired.status.code, 419)
            XCTAssertEqual(try JSON.object(expired.body)["code"] as? String, "token_expired")
        }
    }
}
