import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
import TestSupport
import XCTest

@testable import Gateway

/// Client connections with nothing under way are closed after `GATEWAY_IDLE_TIMEOUT_SECONDS`
/// (here 1 s), on both paths; requests in progress are never cut by it.
final class IdleTimeoutTests: XCTestCase {
    typealias Fakes = GatewayTests.FakeServices
    static let configuration = GatewayConfiguration(idleTimeoutSeconds: 1)

    static func request(_ path: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\n\r\n"
    }

    func testAConnectionIsClosedOnceIdleAfterAnswersOnBothPaths() async throws {
        try await GatewayTests.makeApp(Fakes(), configuration: Self.configuration).test(.live) { client in
            _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
            let port = try XCTUnwrap(client.port)
            // Direct (the key is cached), then the router (unknown route).
            let (text, closed) = try await RawHTTP.exchangeUntilClosed(
                port: port, Self.request("/v1/posts/one") + Self.request("/v1/nothing"), answers: 2, received: {}
            )
            XCTAssertTrue(closed, "the idle connection was not closed")
            XCTAssertEqual(RawHTTP.statuses(text), [200, 444], text)
        }
    }

    func testARequestHeadThatNeverCompletesIsCut() async throws {
        try await GatewayTests.makeApp(Fakes(), configuration: Self.configuration).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let (text, closed) = try await RawHTTP.exchangeUntilClosed(
                port: port, "GET /v1/posts HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-", answers: 1, received: {}
            )
            XCTAssertTrue(closed)
            XCTAssertEqual(text, "", "closed without an answer")
        }
    }

    func testAnAnswerSlowerThanTheTimeoutIsNotCut() async throws {
        let fakes = Fakes(answer: { _, request in
            try await Task.sleep(for: .milliseconds(1_500))
            return Fakes.response(.ok, ["content-type": "application/json"], #"{"path":"\#(request.head.uri)"}"#)
        })
        try await GatewayTests.makeApp(fakes, configuration: Self.configuration, appKeys: GatewayTests.appKeysFailingFirst()).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            // The first use of the key goes through the router (the front's lookup failed); the second, cached, goes direct.
            for path in ["/v1/posts/router", "/v1/posts/direct"] {
                let (text, closed) = try await RawHTTP.exchangeUntilClosed(port: port, Self.request(path), answers: 1, received: {})
                XCTAssertTrue(closed, path)
                XCTAssertEqual(RawHTTP.statuses(text), [200], text)
                XCTAssertTrue(text.contains(path), text)
            }
            // (The test client's own connection has been idle too long by now.)
            let metrics = try await RawHTTP.exchange(port: port, "GET /metrics HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n")
            XCTAssertTrue(
                metrics.contains(#"http_requests_total{method="GET",route="/v1/posts/{post_id}",status="200"} 1"#), "one went direct:\n\(metrics)")
        }
    }
}
