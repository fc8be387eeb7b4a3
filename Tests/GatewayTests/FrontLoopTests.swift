import Contracts
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import ServiceKit
import Synchronization
import TestSupport
import XCTest

@testable import Gateway

/// Connections whose first request is plain move from NIO to a front loop; these run `.live`
/// against a real service, since the loops forward over their own connections.
final class FrontLoopTests: XCTestCase {
    /// A market-svc that says which request it answered, refuses requests without the internal
    /// secret, and has one large answer (streamed through the gateway).
    static func startMarket() async throws -> LiveServer {
        let router = Router()
        router.get("/v1/posts/big") { _, _ in Response(status: .ok, body: .init(byteBuffer: UpstreamPoolTests.big)) }
        for (path, method) in [("/v1/posts/:id", HTTPRequest.Method.get), ("/v1/posts", .post)] {
            router.on(RouterPath(path), method: method) { request, _ -> Response in
                guard request.headers[.init(InternalHeader.secret)!] == TestEnvironment.internalSecret else { return Response(status: .forbidden) }
                let body = try await request.body.collect(upTo: 1 << 20)
                let text = #"{"answered":"\#(request.method) \#(request.uri.path) \#(body.readableBytes)"}"#
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
            }
        }
        return try await LiveServer.start(router)
    }

    /// A market-svc replica that says which one answered.
    static func startReplica(_ name: String) async throws -> LiveServer {
        let router = Router()
        router.get("/v1/posts/:id") { _, _ in "from \(name)" }
        return try await LiveServer.start(router)
    }

    static func request(_ method: String, _ path: String, body: String = "", close: Bool = false) -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\n"
            + (body.isEmpty ? "" : "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n")
            + (close ? "Connection: close\r\n" : "") + "\r\n" + body
    }

    func testPlainRequestsAreAnsweredOnALoopUntilOneItHandsBack() async throws {
        let market = try await Self.startMarket()
        try await GatewayTests.makeLiveApp(.market, at: market.url).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            // Plain (moves the connection), a body, a large answer, a chunked body (back to NIO), closing.
            let requests =
                Self.request("GET", "/v1/posts/a") + Self.request("POST", "/v1/posts", body: #"{"x":1}"#) + Self.request("GET", "/v1/posts/big")
                + "POST /v1/posts HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
                + Self.request("GET", "/v1/posts/d", close: true)
            let answers = try await RawHTTP.exchange(port: port, requests)
            XCTAssertEqual(RawHTTP.statuses(answers), [200, 200, 200, 200, 200], String(answers.prefix(2000)))
            let order = ["GET /v1/posts/a 0", "POST /v1/posts 7", "POST /v1/posts 5", "GET /v1/posts/d 0"].map { answers.range(of: $0)?.lowerBound }
            XCTAssertFalse(order.contains(nil), String(answers.prefix(2000)))
            XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted())
            XCTAssertTrue(answers.lowercased().contains("content-length: \(UpstreamPoolTests.big.readableBytes)"), "the large answer kept its length")

            let metrics = try await client.execute(uri: "/metrics", method: .get).body.text
            XCTAssertTrue(metrics.contains("gateway_front_loop_connections_total 1"), metrics)
            XCTAssertTrue(metrics.contains("gateway_front_loop_handbacks_total 1"), metrics)
            // The loop's answers (the router counts its own under its routes).
            XCTAssertTrue(metrics.contains(#"http_requests_total{method="GET",route="/v1/posts/{post_id}",status="200"} 2"#), metrics)
            XCTAssertTrue(metrics.contains(#"http_requests_total{method="POST",route="/v1/posts",status="200"} 1"#), metrics)
        }
        await market.stop()
    }

    /// A service with several replicas is the loops' too (all but chat-svc): one connection's
    /// requests take turns between the replicas on its loop; a replica that cannot be reached is
    /// skipped (its request was never sent), and every request is answered.
    func testTheLoopsTakeTurnsBetweenReplicasAndSkipOneThatIsDown() async throws {
        let a = try await Self.startReplica("a"), b = try await Self.startReplica("b")
        try await GatewayTests.makeLiveApp(.market, at: a.url + "," + b.url).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            // Kept alive (a request that closes the connection goes back to NIO), read until answered.
            func exchange() async throws -> String {
                try await RawHTTP.exchangeUntilClosed(
                    port: port, bytes: ByteBuffer(string: String(repeating: Self.request("GET", "/v1/posts/x"), count: 4)), answers: 4,
                    until: { $0.components(separatedBy: "from ").count - 1 == 4 },
                    timeout: .seconds(10)
                ).text
            }
            func replies(_ answers: String, from name: String) -> Int { answers.components(separatedBy: "from \(name)").count - 1 }
            let answers = try await exchange()
            XCTAssertEqual(RawHTTP.statuses(answers), [200, 200, 200, 200], answers)
            XCTAssertEqual([replies(answers, from: "a"), replies(answers, from: "b")], [2, 2], answers)

            await b.stop()
            let withOneDown = try await exchange()
            XCTAssertEqual(RawHTTP.statuses(withOneDown), [200, 200, 200, 200], withOneDown)
            XCTAssertEqual(replies(withOneDown, from: "a"), 4, withOneDown)

            let metrics = try await client.execute(uri: "/metrics", method: .get).body.text
            XCTAssertTrue(metrics.contains("gateway_front_loop_connections_total 2"), metrics)
            XCTAssertTrue(metrics.contains("gateway_front_loop_handbacks_total 0"), metrics)
        }
        await a.stop()
    }

    /// The kernel knows a loop's thread by the loop's name (what `top -H` and `perf` show).
    func testALoopsThreadCarriesItsName() async {
        let loop = FrontLoop(name: "front-loop-name", policy: .testing())
        let name = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            loop.execute { done.resume(returning: (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "") }
        }
        XCTAssertEqual(name, "front-loop-name\n")
        loop.quiesce()
    }

    /// At graceful shutdown a loop with no connections ends; every job it took before ran, and
    /// it takes none after (a connection moved then is closed by the caller, not left open for good).
    func testALoopThatEndedRefusesJobsAndRanEveryJobItTook() async {
        let loop = FrontLoop(name: "front-loop-test", policy: .testing())
        loop.quiesce()
        // Each job taken keeps the loop one more turn; it ends at a turn with none pending. A
        // job taken and never run would leave this waiting for good.
        var taken = 0
        while taken < 1_000,
            await withCheckedContinuation({ (done: CheckedContinuation<Bool, Never>) in
                if !loop.execute({ done.resume(returning: true) }) { done.resume(returning: false) }
            })
        {
            taken += 1
        }
        XCTAssertLessThan(taken, 1_000, "the loop went on taking jobs after graceful shutdown")
        XCTAssertFalse(loop.execute {}, "an ended loop took a job")
    }

    /// A client that pipelines more than `FrontInput.maxAhead` behind a request the service is
    /// still answering is read no further (the rest waits in the kernel, not in the gateway), and
    /// once the answer is written reading resumes: every request answered, in order.
    func testAPipeliningClientIsReadNoFurtherThanTheLimitAheadOfItsAnswer() async throws {
        let (arrived, held) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        let router = Router()
        router.get("/v1/posts/held") { _, _ -> String in
            held.yield()
            for await _ in released { break }
            return "held"
        }
        router.post("/v1/posts") { request, _ -> String in
            String(buffer: try await request.body.collect(upTo: 1 << 20)).prefix(8).description
        }
        let market = try await LiveServer.start(router)
        try await GatewayTests.makeLiveApp(.market, at: market.url).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            // 40 bodies of 4 KB: two and a half times the limit, under the per-address burst.
            let numbered = (0..<40).map { String(format: "n=%04d;", $0) }
            let requests =
                Self.request("GET", "/v1/posts/held")
                + numbered.enumerated().map { index, number in
                    Self.request("POST", "/v1/posts", body: number + String(repeating: "x", count: 4096), close: index == numbered.count - 1)
                }.joined()
            let exchange = Task { try await RawHTTP.exchangeUntilClosed(port: port, requests, answers: 41, received: {}) }
            for await _ in arrived { break }
            // The pause, seen from outside: the loop counts it (each poll is a new connection).
            let deadline = ContinuousClock.now + .seconds(10)
            var metrics = ""
            while ContinuousClock.now < deadline, !metrics.contains("gateway_front_loop_read_pauses_total 1") {
                metrics = try await client.execute(uri: "/metrics", method: .get).body.text
            }
            XCTAssertTrue(metrics.contains("gateway_front_loop_read_pauses_total 1"), "reading never paused: " + metrics)
            release.yield()
            let (answers, closed) = try await exchange.value
            XCTAssertTrue(closed, "reading never resumed")
            XCTAssertEqual(RawHTTP.statuses(answers), Array(repeating: 200, count: 41), String(answers.prefix(2000)))
            let order = (["held"] + numbered).map { answers.range(of: $0)?.lowerBound }
            XCTAssertFalse(order.contains(nil), String(answers.prefix(2000)))
            XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), "answered in order")
        }
        release.finish()
        await market.stop()
    }

    func testALoopClosesAConnectionIdleForTheTimeout() async throws {
        let market = try await Self.startMarket()
        try await GatewayTests.makeLiveApp(.market, at: market.url, idleTimeoutSeconds: 1).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let (text, ended) = try await RawHTTP.exchangeUntilClosed(port: port, Self.request("GET", "/v1/posts/a"), answers: 1, received: {})
            XCTAssertTrue(ended, "the idle connection stayed open")
            XCTAssertEqual(RawHTTP.statuses(text), [200], text)
            // (The test client's own connection has been idle as long, and is closed too.)
            let metrics = try await RawHTTP.exchange(port: port, "GET /metrics HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n")
            XCTAssertTrue(metrics.contains("gateway_front_loop_connections_total 1"), metrics)
        }
        await market.stop()
    }

    func testGracefulShutdownClosesAConnectionOnALoop() async throws {
        let market = try await Self.startMarket()
        let reader = try await GatewayTests.makeLiveApp(.market, at: market.url).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let (answered, signal) = AsyncStream<Void>.makeStream()
            let reader = Task {
                try await RawHTTP.exchangeUntilClosed(port: port, Self.request("GET", "/v1/posts/one"), answers: 1, received: { signal.finish() })
            }
            for await _ in answered {}
            return reader
        }
        let (text, closed) = try await reader.value
        XCTAssertTrue(closed, "the gateway kept the idle connection open through shutdown")
        XCTAssertEqual(RawHTTP.statuses(text), [200], text)
        await market.stop()
    }

    func testAServiceThatCannotBeReachedIsAnsweredInTheAppsDialect() async throws {
        try await GatewayTests.makeLiveApp(.market, at: "http://127.0.0.1:\(try FreePort.pick())").test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let answers = try await RawHTTP.exchange(port: port, Self.request("GET", "/v1/posts/a") + Self.request("GET", "/v1/posts/b", close: true))
            XCTAssertEqual(RawHTTP.statuses(answers), [503, 503], answers)
            XCTAssertTrue(answers.contains(#"{"message":"market-svc unavailable"}"#), answers)
        }
    }

    /// A service that closes a kept-alive connection just as the loop sends the next request on
    /// it: that request (a GET) is sent once more on a new connection, and the client sees no failure.
    func testARequestOnAConnectionTheServiceClosedIsSentAgainOnANewOne() async throws {
        let accepted = Mutex(0)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                accepted.withLock { $0 += 1 }
                return channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(AnswersOnceServer()) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let url = "http://127.0.0.1:\(try XCTUnwrap(server.localAddress?.port))"
        try await GatewayTests.makeLiveApp(.market, at: url).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let (text, _) = try await RawHTTP.exchangeUntilClosed(
                port: port, bytes: ByteBuffer(string: Self.request("GET", "/v1/posts/a") + Self.request("GET", "/v1/posts/b")), answers: 2,
                until: { RawHTTP.statuses($0).count >= 2 }, timeout: .seconds(10))
            XCTAssertEqual(RawHTTP.statuses(text), [200, 200], text)
        }
        XCTAssertEqual(accepted.withLock { $0 }, 2, "the second request went on a new connection")
        try await server.close()
    }

    /// Answers the first request of a connection and keeps it; closes it at the second, unanswered.
    private final class AnswersOnceServer: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private var answered = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return context.close(promise: nil) }
            answered = true
            context.writeAndFlush(
                wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}")),
                promise: nil)
        }
    }
}
