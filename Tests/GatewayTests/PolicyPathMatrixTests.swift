import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import Gateway

/// Every policy rule through each of the gateway's request paths: the Hummingbird router
/// (`.router`: no transport of ours), the direct path (`.live`, the key already resolved: the NIO
/// handler asks the policy and forwards what it admits itself, leaving refusals to the router)
/// and, for the rules a socket upgrade meets, the socket path. A rule answers alike whichever
/// path met it.
final class PolicyPathMatrixTests: XCTestCase {
    typealias Fakes = GatewayTests.FakeServices

    /// One request and the answer every path must give.
    struct Case {
        var label: String
        var method: HTTPRequest.Method = .get
        var uri: String
        var headers: HTTPFields
        var body: ByteBuffer? = nil
        var status: Int
        /// The exact JSON body (empty: no body at all), or nil for a `{"message"}` of any wording.
        var json: [String: String]?
        /// An HTML page expected as the service sent it (the console's error pages).
        var page: String? = nil
    }

    static let cases: [Case] = [
        Case(label: "no key", uri: "/v1/posts", headers: [:], status: 420, json: nil),
        Case(label: "unknown key", uri: "/v1/posts", headers: [.sesacKey: "nope"], status: 420, json: ["message": "unknown app key"]),
        Case(label: "unknown route", uri: "/v1/nothing", headers: [.sesacKey: "key-lslp"], status: 444, json: ["message": "unknown route"]),
        Case(label: "unknown route, slp", uri: "/v1/nothing", headers: [.sesacKey: "key-slp"], status: 400, json: ["errorCode": "E97"]),
        Case(
            label: "body over the limit", method: .post, uri: "/v1/posts", headers: [.sesacKey: "key-lslp"],
            body: ByteBuffer(repeating: 65, count: 2048),
            status: 413, json: nil),
        Case(
            label: "body over the limit, slp", method: .post, uri: "/v1/posts", headers: [.sesacKey: "key-slp"],
            body: ByteBuffer(repeating: 65, count: 2048),
            status: 400, json: ["errorCode": "E11"]),
        Case(
            label: "forged internal headers", uri: "/v1/posts",
            headers: [
                .sesacKey: "key-lslp", .init(InternalHeader.secret)!: "forged", .init(InternalHeader.appID)!: "forged",
                .init(InternalHeader.appProfile)!: "slp",
            ], status: 200, json: ["ok": "true"]),
        Case(
            label: "a service's error in the slp dialect", uri: "/v1/users/me/profile", headers: [.sesacKey: "key-slp"], status: 400,
            json: ["errorCode": "E05"]),
        Case(
            label: "a service's error, GLINT's empty auth bodies", uri: "/v1/users/me/profile", headers: [.sesacKey: "key-glint"], status: 419,
            json: [:]),
        Case(
            label: "a console page's error passes as it is", uri: "/admin/apps/x/reports", headers: [:], status: 404, json: nil,
            page: PolicyPathMatrixTests.errorPage),
    ]

    static let errorPage = "<!doctype html><p>no such app</p>"

    /// A fake service that says it expired tokens on the profile route and answers `{"ok":"true"}` elsewhere.
    static func fakes() -> Fakes {
        Fakes(answer: { _, request in
            if request.head.uri.hasSuffix("/profile") { return GatewayTests.canonical(.init(statusCode: 419), .tokenExpired, "access token expired") }
            if request.head.uri.hasPrefix("/admin/") { return Fakes.response(.notFound, ["content-type": "text/html; charset=utf-8"], errorPage) }
            return Fakes.response(.ok, ["content-type": "application/json"], #"{"ok":"true"}"#)
        })
    }

    private static func check(_ client: some TestClientProtocol, path: String) async throws {
        for rule in Self.cases {
            let answer = try await client.execute(uri: rule.uri, method: rule.method, headers: rule.headers, body: rule.body)
            let what = "\(rule.label) (\(path))"
            XCTAssertEqual(Int(answer.status.code), rule.status, "\(what): \(answer.body.text)")
            if let page = rule.page {
                XCTAssertEqual(answer.body.text, page, what)
                XCTAssertEqual(answer.headers[.contentType], "text/html; charset=utf-8", what)
            } else if let json = rule.json {
                let body = json.isEmpty ? [:] : try JSON.object(answer.body) as? [String: String]
                XCTAssertEqual(json.isEmpty ? (answer.body.readableBytes == 0 ? [:] : nil) : body, json, "\(what): \(answer.body.text)")
            } else {
                JSON.assertKeys(try JSON.object(answer.body), ["message"])
            }
        }
    }

    /// What reached the services: the gateway's own internal headers, never the client's.
    private func checkForwarded(_ fakes: Fakes, path: String) {
        for (_, request) in fakes.received.withLock({ $0 }) {
            XCTAssertEqual(request.head.headers[InternalHeader.secret], [TestEnvironment.internalSecret], path)
            XCTAssertNotEqual(request.head.headers[InternalHeader.appID], ["forged"], path)
            XCTAssertTrue(request.head.uri != "/v1/nothing", "\(path): a refused request reached a service")
        }
        let forged = fakes.received.withLock { $0.filter { $0.1.head.uri == "/v1/posts" && $0.1.head.method == .GET } }
        XCTAssertEqual(forged.map { $0.1.head.headers[InternalHeader.appProfile] }, [["lslp"]], "\(path): the app's own profile")
    }

    func testEveryRuleThroughTheRouter() async throws {
        let fakes = Self.fakes()
        try await GatewayTests.makeApp(fakes, configuration: GatewayConfiguration(maxBodyBytes: 1024)).test(.router) { client in
            try await Self.check(client, path: "router")
        }
        checkForwarded(fakes, path: "router")
    }

    func testEveryRuleThroughTheDirectPath() async throws {
        let fakes = Self.fakes()
        try await GatewayTests.makeApp(fakes, configuration: GatewayConfiguration(maxBodyBytes: 1024)).test(.live) { client in
            // Resolved once through the router; from then on these keys go direct.
            for key in ["key-lslp", "key-slp", "key-glint"] {
                _ = try await client.execute(uri: "/v1/chats", method: .get, headers: [.sesacKey: key])
            }
            fakes.received.withLock { $0.removeAll() }
            try await Self.check(client, path: "direct")
        }
        checkForwarded(fakes, path: "direct")
    }

    /// Rate limits, whose buckets both paths share: the same refusal on each.
    func testRateLimitsThroughEachPath() async throws {
        for (mode, path) in [(TestingSetup.router, "router"), (.live, "direct")] {
            let tight = GatewayConfiguration(appLimit: .init(perSecond: 0.5, burst: 3))
            try await GatewayTests.makeApp(Self.fakes(), configuration: tight).test(mode) { client in
                var statuses: [Int] = []
                for _ in 0..<4 {
                    statuses.append(Int(try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"]).status.code))
                }
                XCTAssertEqual(statuses, [200, 200, 200, 429], path)
                for _ in 0..<3 { _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-slp"]) }
                let slp = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-slp"])
                XCTAssertEqual(try JSON.object(slp.body) as? [String: String], ["errorCode": "E98"], path)
            }
        }
    }

    /// The socket path meets the key rules (a socket may come without a key; a wrong one is
    /// refused in the default dialect), refused before anything reaches chat-svc.
    func testKeyRulesThroughTheSocketPath() async throws {
        let chat = try await SocketSpliceTests.chatStandIn()
        try await SocketSpliceTests.withGateway(chatURL: chat.url) { port, _ in
            for key in ["nope", ""] {
                let (text, closed) = try await RawHTTP.exchangeUntilClosed(
                    port: port, SocketSpliceTests.upgradeRequest(key: key), answers: 1, received: {})
                XCTAssertTrue(closed, text)
                XCTAssertEqual(RawHTTP.statuses(text), [420], text)
                XCTAssertTrue(text.contains(#"{"message":"unknown app key"}"#), text)
            }
            let forged = SocketSpliceTests.upgradeRequest().replacingOccurrences(of: "\r\n\r\n", with: "\r\n\(InternalHeader.appID): app-slp\r\n\r\n")
            let (text, _) = try await RawHTTP.exchangeUntilClosed(
                port: port, bytes: ByteBuffer(string: forged), answers: 1, until: { RawHTTP.statuses($0).count >= 1 })
            XCTAssertEqual(RawHTTP.statuses(text), [101], "the stand-in upgrades only the app the key names, not the forged one:\n\(text)")
        }
        await chat.stop()
    }
}
