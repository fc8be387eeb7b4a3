import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import ServiceKit
import TestSupport
import XCTest

@testable import Gateway

/// The direct path only exists on a real server connection, so these run `.live`.
final class DirectPathTests: XCTestCase {
    typealias Fakes = GatewayTests.FakeServices

    /// Answers with the path it was asked for, so tests can see the order of answers.
    static func echoingPath(delayFor slowPath: String? = nil) -> Fakes {
        Fakes(answer: { _, request in
            if request.head.uri == slowPath { try await Task.sleep(for: .milliseconds(100)) }
            return Fakes.response(.ok, ["content-type": "application/json", "server": "market-svc"], #"{"path":"\#(request.head.uri)"}"#)
        })
    }

    func testACachedKeyGoesDirectWithTheSameHeadersAsTheRouter() async throws {
        let fakes = Fakes()
        try await GatewayTests.makeApp(fakes, appKeys: GatewayTests.appKeysFailingFirst()).test(.live) { client in
            let headers: HTTPFields = [
                .sesacKey: "key-lslp", .authorization: "token-abc", .init("x-request-id")!: "req-1",
                .init("X-Internal-Secret")!: "forged", .init("x-internal-app-id")!: "forged",
            ]
            let first = try await client.execute(uri: "/v1/posts?limit=5", method: .get, headers: headers)
            XCTAssertEqual(first.status, .ok, "the key is resolved the router's way (the front's lookup failed) and cached")
            let second = try await client.execute(uri: "/v1/posts?limit=5", method: .get, headers: headers)
            XCTAssertEqual(second.status, .ok)
            XCTAssertEqual(second.body.text, #"{"ok":true}"#)
            XCTAssertEqual(second.headers[.init("x-request-id")!], "req-1")
            XCTAssertEqual(second.headers[.server], "gateway")
            XCTAssertEqual(second.headers[.contentType], "application/json")
            XCTAssertEqual(Set(second.headers.map(\.name)), Set(first.headers.map(\.name)), "the same headers as the router's answer")

            let metrics = try await client.execute(uri: "/metrics", method: .get).body.text
            XCTAssertTrue(
                metrics.contains(#"http_requests_total{method="GET",route="/v1/posts",status="200"} 1"#), "the second went direct:\n\(metrics)")
        }
        let requests = fakes.received.withLock { $0 }
        XCTAssertEqual(requests.count, 2)
        let (viaRouter, direct) = (requests[0].1.head, requests[1].1.head)
        XCTAssertEqual(direct.uri, "/v1/posts?limit=5")
        for name in [
            "authorization", InternalHeader.secret, InternalHeader.appID, InternalHeader.appProfile, InternalHeader.requestID,
            InternalHeader.clientIP, "sesackey", "host",
        ] {
            XCTAssertEqual(direct.headers[name], viaRouter.headers[name], name)
        }
        XCTAssertEqual(direct.headers[InternalHeader.secret], [TestEnvironment.internalSecret])
        XCTAssertEqual(direct.headers[InternalHeader.appID], ["app-lslp"])
    }

    func testDirectAnswersUseTheAppsDialect() async throws {
        let fakes = Fakes(answer: { service, request in
            if service == .chat { throw UpstreamError.timedOut }
            if request.head.uri.hasSuffix("profile") { return GatewayTests.canonical(.init(statusCode: 419), .tokenExpired, "access token expired") }
            return Fakes.response(.ok, [:], "{}")
        })
        try await GatewayTests.makeApp(fakes).test(.live) { client in
            for key in ["key-lslp", "key-glint", "key-slp"] {
                _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: key])
            }
            let slp = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: [.sesacKey: "key-slp"])
            XCTAssertEqual(slp.status, .badRequest)
            XCTAssertEqual(try JSON.object(slp.body) as? [String: String], ["errorCode": "E05"])
            let glint = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: [.sesacKey: "key-glint"])
            XCTAssertEqual(glint.status.code, 419)
            XCTAssertEqual(glint.body.readableBytes, 0)
            let down = try await client.execute(uri: "/v1/chats", method: .get, headers: [.sesacKey: "key-lslp"])
            XCTAssertEqual(down.status, .serviceUnavailable)
            XCTAssertEqual(try JSON.object(down.body) as? [String: String], ["message": "chat-svc unavailable"])

            let metrics = try await client.execute(uri: "/metrics", method: .get).body.text
            XCTAssertTrue(metrics.contains(#"route="/v1/users/me/profile",status="419""#), metrics)
            XCTAssertTrue(metrics.contains(#"route="/v1/chats",status="503""#), metrics)
        }
    }

    func testPipelinedRequestsAreAnsweredInOrderAcrossBothPaths() async throws {
        let fakes = Self.echoingPath(delayFor: "/v1/posts/slow")
        try await GatewayTests.makeApp(fakes).test(.live) { client in
            _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
            let port = try XCTUnwrap(client.port)
            func request(_ path: String, close: Bool = false) -> String {
                "GET \(path) HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n"
            }
            // direct (slow to answer), router (444), direct or router, router (closes).
            let answers = try await RawHTTP.exchange(
                port: port, request("/v1/posts/slow") + request("/v1/nothing") + request("/v1/posts/fast") + request("/v1/posts/last", close: true)
            )
            XCTAssertEqual(RawHTTP.statuses(answers), [200, 444, 200, 200], answers)
            let order = ["/v1/posts/slow", "unknown route", "/v1/posts/fast", "/v1/posts/last"].map { answers.range(of: $0)?.lowerBound }
            XCTAssertFalse(order.contains(nil), answers)
            XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), answers)
        }
        XCTAssertEqual(fakes.received.withLock { $0.map(\.1.head.uri) }, ["/v1/posts", "/v1/posts/slow", "/v1/posts/fast", "/v1/posts/last"])
    }

    /// Hummingbird never saw this connection (all its requests went direct): graceful shutdown
    /// must still close it rather than wait for the client to go.
    func testGracefulShutdownClosesAConnectionServedOnlyDirectly() async throws {
        let fakes = Self.echoingPath()
        let reader = try await GatewayTests.makeApp(fakes).test(.live) { client in
            _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
            let port = try XCTUnwrap(client.port)
            let (answered, signal) = AsyncStream<Void>.makeStream()
            let reader = Task {
                try await RawHTTP.exchangeUntilClosed(
                    port: port, "GET /v1/posts/one HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\n\r\n", answers: 1,
                    received: { signal.finish() }
                )
            }
            for await _ in answered {}
            return reader
        }
        let (text, closed) = try await reader.value
        XCTAssertTrue(closed, "the gateway kept the idle connection open through shutdown")
        XCTAssertEqual(RawHTTP.statuses(text), [200], text)
        XCTAssertTrue(text.contains("/v1/posts/one"), text)
    }

    func testLargeAnswersStreamThroughBothPathsFromARealService() async throws {
        let router = Router()
        router.get("/v1/posts/:id") { request, _ in
            // The internal headers arrived: the service would refuse without them.
            guard request.headers[.init(InternalHeader.secret)!] == TestEnvironment.internalSecret else { return Response(status: .forbidden) }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .init(byteBuffer: UpstreamPoolTests.big))
        }
        let market = try await LiveServer.start(router)
        try await GatewayTests.makeLiveApp(.market, at: market.url, appKeys: GatewayTests.appKeysFailingFirst()).test(.live) { client in
            // The first through the router, the others direct.
            for _ in 0..<3 {
                let response = try await client.execute(uri: "/v1/posts/abc", method: .get, headers: [.sesacKey: "key-lslp"])
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.body, UpstreamPoolTests.big)
            }
            let metrics = try await client.execute(uri: "/metrics", method: .get).body.text
            XCTAssertTrue(metrics.contains(#"http_requests_total{method="GET",route="/v1/posts/{post_id}",status="200"} 2"#), metrics)
        }
        await market.stop()
    }
}
