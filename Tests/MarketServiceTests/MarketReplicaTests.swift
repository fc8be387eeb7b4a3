import Contracts
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import PostgresStorage
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// Two market-svc replicas on one PostgreSQL database: what one writes empties the other's post
/// cache, and wallets change in turn whichever replica is asked. Needs the run's PostgreSQL
/// whichever engine the run uses.
final class MarketReplicaTests: XCTestCase {
    typealias Harness = PostContractTests.Harness
    static let alice = PostContractTests.alice, bob = PostContractTests.bob

    private static func replicas() async throws -> (Harness, Harness) {
        let shared = try await TestPostgres.freshDatabase()
        try await shared.database.migrate(MarketPostgresMigrations.all)
        let a = try await Harness.make(engine: .postgres(shared.database))
        let b = try await Harness.make(engine: .postgres(try PostgresPool(url: shared.url, logger: TestEnvironment.logger)))
        return (a, b)
    }

    private static func call(
        _ client: some TestClientProtocol, _ harness: Harness, _ method: HTTPRequest.Method, _ uri: String, as user: String,
        body: (some Encodable)? = Optional<EmptyAnswer>.none
    ) async throws -> [String: Any] {
        let response = try await client.execute(
            uri: uri, method: method, headers: try await harness.headers(user, [("content-type", "application/json")]),
            body: body.map { JSONCoding.encode($0) })
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try JSON.object(response.body)
    }

    func testAPostKeptByOneReplicaShowsWhatTheOtherWrites() async throws {
        let (a, b) = try await Self.replicas()
        try await a.app.contractTest { replicaA in
            try await b.app.contractTest { replicaB in
                let id = try JSON.string(
                    try await Self.call(
                        replicaA, a, .post, "/v1/posts", as: Self.alice,
                        body: PostCreateRequest(category: "c", title: "first", content: "")), "post_id")
                // Kept by A: its page and its answer.
                for _ in 0..<2 { _ = try await Self.call(replicaA, a, .get, "/v1/posts/\(id)", as: Self.bob) }

                _ = try await Self.call(replicaB, b, .post, "/v1/posts/\(id)/like", as: Self.bob, body: LikeStatus(likeStatus: true))
                _ = try await Self.call(replicaB, b, .post, "/v1/posts/\(id)/comments", as: Self.bob, body: CommentRequest(content: "from b"))
                _ = try await Self.call(replicaB, b, .put, "/v1/posts/\(id)", as: Self.alice, body: PostUpdateRequest(title: "second"))
                let seen = await HTTPProbe.eventually(within: .seconds(10)) { () -> Bool? in
                    (try? await Self.call(replicaA, a, .get, "/v1/posts/\(id)", as: Self.bob))?["title"] as? String == "second" ? true : nil
                }
                XCTAssertNotNil(seen, "A's cache is emptied by B's commits")
                let post = try await Self.call(replicaA, a, .get, "/v1/posts/\(id)", as: Self.bob)
                XCTAssertEqual(post["likes"] as? [String], [Self.bob], "with everything B wrote before")
                XCTAssertEqual((post["comments"] as? [[String: Any]])?.map { $0["content"] as? String }, ["from b"])
            }
        }
    }

    private static func internalPost(_ client: any TestClientProtocol, _ path: String, _ body: some Encodable) async throws -> TestResponse {
        try await client.execute(
            uri: path, method: .post, headers: TestEnvironment.fields(app: PostContractTests.appID, extra: [("content-type", "application/json")]),
            body: JSONCoding.encode(body))
    }

    private static func balance(_ client: some TestClientProtocol) async throws -> Int {
        let wallet = try await client.execute(
            uri: "/internal/wallets/\(alice)", method: .get, headers: TestEnvironment.fields(app: PostContractTests.appID))
        return try JSONCoding.decoder.decode(CoinBalance.self, from: wallet.body).coins
    }

    /// 100 coins, ten spends of 30 asked of both replicas at once: three go through, whichever
    /// replica took them; one key asked of both at once is spent once.
    func testWalletSpendsAreSerializedAcrossReplicas() async throws {
        let (a, b) = try await Self.replicas()
        let grant = PaymentGrantEvent(
            kind: .coins, impUID: "imp_1", appID: PostContractTests.appID, userID: Self.alice, merchantUID: "m1", coins: 100)
        try await a.app.contractTest { replicaA in
            try await b.app.contractTest { replicaB in
                let granted = try await Self.internalPost(replicaA, "/internal/wallets/coins", grant)
                XCTAssertEqual(granted.status, .ok, granted.body.text)
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for n in 0..<10 {
                        group.addTask {
                            let spend = CoinSpend(key: "workspace_\(n)", userID: Self.alice, coins: 30)
                            return try await Self.internalPost(n % 2 == 0 ? replicaA : replicaB, "/internal/wallets/spends", spend).status
                        }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                XCTAssertEqual(statuses.filter { $0 == .ok }.count, 3, "\(statuses)")
                XCTAssertEqual(statuses.filter { $0 == .badRequest }.count, 7, "short: refused")
                let left = try await Self.balance(replicaB)
                XCTAssertEqual(left, 10)

                var topUp = grant
                (topUp.impUID, topUp.coins) = ("imp_2", 60)
                _ = try await Self.internalPost(replicaB, "/internal/wallets/coins", topUp)
                let spend = CoinSpend(key: "workspace_once", userID: Self.alice, coins: 50)
                let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                    for client in [replicaA, replicaB] {
                        group.addTask {
                            let spent = try await Self.internalPost(client, "/internal/wallets/spends", spend)
                            XCTAssertEqual(spent.status, .ok, spent.body.text)
                            return try JSONCoding.decoder.decode(CoinBalance.self, from: spent.body).coins
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                XCTAssertEqual(answers, [20, 20], "spent once; the other call answers the same")
                let final = try await Self.balance(replicaA)
                XCTAssertEqual(final, 20)
            }
        }
    }
}
