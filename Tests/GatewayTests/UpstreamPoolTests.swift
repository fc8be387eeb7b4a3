import Hummingbird
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import TestSupport
import XCTest

@testable import Gateway

/// The gateway's own HTTP/1 client against a real server.
final class UpstreamPoolTests: XCTestCase {
    static let big = ByteBuffer(bytes: (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    static func startService() async throws -> LiveServer {
        let router = Router()
        router.get("/small") { _, _ in "hello" }
        router.get("/big") { _, _ in Response(status: .ok, body: .init(byteBuffer: big)) }
        router.get("/busy") { _, _ -> String in
            // Holds the connection long enough for concurrent requests to queue for one.
            try await Task.sleep(for: .milliseconds(20))
            return "done"
        }
        router.get("/slow") { _, _ -> String in
            try await Task.sleep(for: .seconds(5))
            return "late"
        }
        router.get("/stalls") { _, _ in
            // A large answer whose service stops sending half-way.
            Response(
                status: .ok,
                body: .init { writer in
                    try await writer.write(ByteBuffer(repeating: 1, count: 300_000))
                    try await Task.sleep(for: .seconds(30))
                    try await writer.finish(nil)
                })
        }
        router.get("/chunked") { _, _ in
            // No length: Hummingbird sends it in chunks.
            Response(
                status: .ok,
                body: .init { writer in
                    for index in 0..<3 { try await writer.write(ByteBuffer(string: "part \(index);")) }
                    try await writer.finish(nil)
                })
        }
        router.post("/echo") { request, _ in
            Response(status: .ok, body: .init(byteBuffer: try await request.body.collect(upTo: 1 << 20)))
        }
        return try await LiveServer.start(router)
    }

    static func get(_ path: String) -> UpstreamRequest {
        UpstreamRequest(head: UpstreamRequestHead(method: .GET, uri: path), body: .none)
    }

    /// `count` GETs of `path`, one after another from one event loop, each answer given to `check`.
    static func inTurn(
        _ count: Int, _ path: String, on pool: UpstreamPool, check: (UpstreamResponse) async throws -> Void
    ) async throws {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        for _ in 0..<count { try await check(try await pool.execute(get(path), timeout: .seconds(5), on: eventLoop).get()) }
    }

    static func collect(_ response: UpstreamResponse) async throws -> ByteBuffer {
        switch response.body {
        case .buffered(let buffer): return buffer
        case .stream(let stream):
            var all = ByteBuffer()
            for try await var part in stream { all.writeBuffer(&part) }
            return all
        }
    }

    /// A pool of `maxConnections` to a fresh service, both ended after `body`.
    static func withPool(maxConnections: Int, _ body: (UpstreamPool) async throws -> Void) async throws {
        let service = try await startService()
        let pool = UpstreamPool(host: "127.0.0.1", port: service.port, maxConnections: maxConnections)
        var failure: (any Error)?
        do { try await body(pool) } catch { failure = error }
        pool.shutdown()
        await service.stop()
        if let failure { throw failure }
    }

    func testSequentialRequestsReuseOneConnection() async throws {
        try await Self.withPool(maxConnections: 8) { pool in
            try await Self.inTurn(5, "/small", on: pool) { response in
                XCTAssertEqual(response.head.status, .ok)
                guard case .buffered(let body) = response.body else { return XCTFail("a small answer comes whole") }
                XCTAssertEqual(String(buffer: body), "hello")
            }
            XCTAssertEqual(pool.openConnections, 1)
        }
    }

    func testLargeAnswersStreamIntact() async throws {
        try await Self.withPool(maxConnections: 8) { pool in
            try await Self.inTurn(2, "/big", on: pool) { response in
                guard case .stream = response.body else { return XCTFail("1 MB is streamed") }
                let body = try await Self.collect(response)
                XCTAssertEqual(body, Self.big)
            }
            XCTAssertEqual(pool.openConnections, 1, "a fully read stream gives its connection back")
        }
    }

    func testConcurrentRequestsWaitForTheConnectionLimit() async throws {
        try await Self.withPool(maxConnections: 2) { pool in
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await pool.execute(
                            Self.get("/busy"), timeout: .seconds(5), on: MultiThreadedEventLoopGroup.singleton.next()
                        ).get()
                        return String(buffer: try await Self.collect(response))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(bodies, Array(repeating: "done", count: 8))
            XCTAssertLessThanOrEqual(pool.openConnections, 2)
        }
    }

    func testStreamedRequestBody() async throws {
        try await Self.withPool(maxConnections: 2) { pool in
            let chunks = AsyncStream<ByteBuffer> { continuation in
                for index in 0..<3 { continuation.yield(ByteBuffer(string: "part\(index);")) }
                continuation.finish()
            }
            let body = LimitedBody(base: RequestBody(asyncSequence: chunks), limit: 1024, gate: .init())
            let request = UpstreamRequest(head: UpstreamRequestHead(method: .POST, uri: "/echo"), body: .stream(body))
            let response = try await pool.execute(request, timeout: .seconds(5), on: MultiThreadedEventLoopGroup.singleton.next()).get()
            let echoed = try await Self.collect(response)
            XCTAssertEqual(String(buffer: echoed), "part0;part1;part2;")
        }
    }

    func testTimeoutClosesTheConnectionAndTheNextRequestGetsANewOne() async throws {
        try await Self.withPool(maxConnections: 1) { pool in
            let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
            do {
                _ = try await pool.execute(Self.get("/slow"), timeout: .milliseconds(100), on: eventLoop).get()
                XCTFail("no answer within the deadline")
            } catch UpstreamError.timedOut {
            }
            let response = try await pool.execute(Self.get("/small"), timeout: .seconds(5), on: eventLoop).get()
            let body = try await Self.collect(response)
            XCTAssertEqual(String(buffer: body), "hello", "the slot of the timed-out connection is free again")
        }
    }

    func testAStreamedAnswerThatStallsEndsWithTheDeadline() async throws {
        try await Self.withPool(maxConnections: 1) { pool in
            let response = try await pool.execute(Self.get("/stalls"), timeout: .milliseconds(300), on: MultiThreadedEventLoopGroup.singleton.next())
                .get()
            guard case .stream = response.body else { return XCTFail("an answer without a length streams") }
            do {
                _ = try await Self.collect(response)
                XCTFail("the stalled stream should have failed")
            } catch {
                XCTAssertTrue(error is UpstreamError, "\(error)")
            }
            let next = try await pool.execute(Self.get("/small"), timeout: .seconds(5), on: MultiThreadedEventLoopGroup.singleton.next()).get()
            XCTAssertEqual(next.head.status, .ok, "the slot was given back")
        }
    }

    func testUnreachableServiceFailsAndFreesTheSlot() async throws {
        let service = try await Self.startService()
        let port = service.port
        await service.stop()
        let pool = UpstreamPool(host: "127.0.0.1", port: port, maxConnections: 1)
        for _ in 0..<2 {
            do {
                _ = try await pool.execute(Self.get("/small"), timeout: .seconds(5), on: MultiThreadedEventLoopGroup.singleton.next()).get()
                XCTFail("nothing listens there")
            } catch {
                XCTAssertEqual(pool.openConnections, 0)
            }
        }
    }

    func testChunkedAnswersArriveWholeAndTheConnectionGoesOn() async throws {
        try await Self.withPool(maxConnections: 8) { pool in
            try await Self.inTurn(3, "/chunked", on: pool) { response in
                XCTAssertEqual(response.head.body, .chunked)
                let body = try await Self.collect(response)
                XCTAssertEqual(String(buffer: body), "part 0;part 1;part 2;")
            }
            XCTAssertEqual(pool.openConnections, 1, "the chunks' end ends the answer, not the connection")
        }
    }

    /// A service that says neither length nor chunks (HTTP/1.1 allows it): its answer runs to the
    /// close, so each request needs a connection of its own.
    func testAnAnswerThatEndsWithTheCloseArrivesWhole() async throws {
        let accepted = Counter()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                accepted.count.withLock { $0 += 1 }
                return channel.pipeline.addHandler(UntilCloseServer())
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let pool = UpstreamPool(host: "127.0.0.1", port: try XCTUnwrap(server.localAddress?.port), maxConnections: 1)
        for _ in 0..<2 {
            let response = try await pool.execute(Self.get("/"), timeout: .seconds(5), on: MultiThreadedEventLoopGroup.singleton.next()).get()
            XCTAssertEqual(response.head.body, .untilClose)
            let body = try await Self.collect(response)
            XCTAssertEqual(String(buffer: body), "all of this, until the close")
        }
        XCTAssertEqual(accepted.count.withLock { $0 }, 2, "a connection per answer")
        pool.shutdown()
        try await server.close()
    }

    private final class Counter: Sendable {
        let count = Mutex(0)
    }

    /// Answers the first request it reads, then closes.
    private final class UntilCloseServer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.writeAndFlush(
                wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nall of this, until the close"))
            )
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
