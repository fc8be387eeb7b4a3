import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import TestSupport
import XCTest

@testable import Gateway

/// `GATEWAY_MAX_UPSTREAM_CONNECTIONS` bounds what the front loops and NIO's pool hold together.
final class UpstreamBudgetTests: XCTestCase {
    func testThePathsSharesNeverAddUpToMoreThanTheBudget() {
        for cores in 1...8 {
            for perService in 1...300 {
                let budget = UpstreamBudget(perService: perService, cores: cores)
                XCTAssertLessThanOrEqual(budget.loops, cores)
                XCTAssertFalse(budget.loopsCarry(.chat, replicas: 2), "chat-svc's sessions need NIO's session routing")
                XCTAssertEqual(budget.nio(.chat, replicas: 2), perService, "what the loops do not carry is NIO's alone")
                for replicas in 1...3 {
                    guard budget.loopsCarry(.market, replicas: replicas) else {
                        XCTAssertEqual(perService, 1, "only a budget of one leaves the loops out")
                        XCTAssertEqual(budget.nio(.market, replicas: replicas), 1)
                        continue
                    }
                    XCTAssertGreaterThanOrEqual(budget.perLoop, 1)
                    XCTAssertGreaterThanOrEqual(budget.nio(.market, replicas: replicas), budget.perLoop, "NIO has the remainder")
                    XCTAssertEqual(
                        budget.loops * budget.perLoop + budget.nio(.market, replicas: replicas), perService, "\(perService) on \(cores) cores")
                }
            }
        }
        XCTAssertEqual(UpstreamBudget(perService: 128, cores: 2).perLoop, 42)
        XCTAssertEqual(UpstreamBudget(perService: 128, cores: 2).nio(.auth, replicas: 1), 44)
        XCTAssertEqual(UpstreamBudget(perService: 2, cores: 2).loops, 1)
    }

    /// Clients on both paths — chunked requests (NIO's) first, then plain ones (moved to the
    /// loops) — against a service that holds every request until the test lets one go: once it
    /// holds the loops' two, it holds one chunked request, not the three NIO's pool would send
    /// with the budget its own (as before: five held at once); then every client is answered.
    func testBothPathsTogetherStayWithinTheBudget() async throws {
        let held = HeldRequests()
        let router = Router()
        router.get("/v1/posts/:id") { _, _ in await held.hold(.get) }
        router.post("/v1/posts") { request, _ in
            _ = try await request.body.collect(upTo: 1 << 10)
            return await held.hold(.post)
        }
        let market = try await LiveServer.start(router)
        let budget = UpstreamBudget(perService: 3, cores: 2)
        try await GatewayTests.makeLiveApp(.market, at: market.url, budget: budget).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            // Kept alive: a first request that closes its connection stays on NIO.
            let plain = FrontLoopTests.request("GET", "/v1/posts/a")
            let chunked =
                "POST /v1/posts HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            let perKind = 4
            let answers = Task {
                try await withThrowingTaskGroup(of: String.self) { group in
                    for request in [chunked, plain] {
                        for _ in 0..<perKind {
                            group.addTask {
                                try await RawHTTP.exchangeUntilClosed(
                                    port: port, bytes: ByteBuffer(string: request), answers: 1,
                                    until: { !RawHTTP.statuses($0).isEmpty }, timeout: .seconds(30)
                                ).text
                            }
                        }
                        // The chunked ones on their way before the plain ones start.
                        if request == chunked { await held.waitUntil { _, posts in posts >= 1 } }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            await held.waitUntil { gets, _ in gets >= 2 }
            XCTAssertEqual(held.counts.posts, 1, "NIO's pool sent more than its share")
            // Then one let go whenever one is held: each frees a connection for a client waiting.
            for _ in 0..<(2 * perKind) {
                await held.waitUntil { gets, posts in gets + posts >= 1 }
                held.releaseOne()
            }
            let texts = try await answers.value
            XCTAssertEqual(texts.flatMap(RawHTTP.statuses), Array(repeating: 200, count: 2 * perKind), texts.joined())
            XCTAssertEqual(held.peak, budget.perService, "the service had more requests at once than the budget")
        }
        await market.stop()
    }
}

/// Requests a fake service holds until released, one at a time, oldest first.
private final class HeldRequests: Sendable {
    enum Kind { case get, post }
    typealias Condition = @Sendable (_ gets: Int, _ posts: Int) -> Bool
    private struct State {
        var waiting: [(kind: Kind, resume: CheckedContinuation<Void, Never>)] = []
        var peak = 0
        var watchers: [(condition: Condition, resume: CheckedContinuation<Void, Never>)] = []
        var counts: (gets: Int, posts: Int) {
            let gets = waiting.count { $0.kind == .get }
            return (gets, waiting.count - gets)
        }
    }
    private let state = Mutex(State())

    var peak: Int { state.withLock { $0.peak } }
    var counts: (gets: Int, posts: Int) { state.withLock { $0.counts } }

    func hold(_ kind: Kind) async -> Response {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                state.waiting.append((kind, continuation))
                state.peak = max(state.peak, state.waiting.count)
                let (gets, posts) = state.counts
                let ready = state.watchers.filter { $0.condition(gets, posts) }.map(\.resume)
                state.watchers.removeAll { $0.condition(gets, posts) }
                return ready
            }
            for watcher in ready { watcher.resume() }
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
    }

    /// Returns once the requests held satisfy `condition`.
    func waitUntil(_ condition: @escaping Condition) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                let (gets, posts) = state.counts
                if condition(gets, posts) { return true }
                state.watchers.append((condition, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    func releaseOne() {
        state.withLock { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst().resume }?.resume()
    }
}
