import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// `POST /internal/wallets/coins`: each payment adds coins once.
final class WalletTests: XCTestCase {
    typealias Harness = PostContractTests.Harness

    private static func grant(_ client: some TestClientProtocol, _ event: PaymentGrantEvent) async throws -> TestResponse {
        try await client.execute(
            uri: "/internal/wallets/coins", method: .post,
            headers: TestEnvironment.fields(app: event.appID, extra: [("content-type", "application/json")]), body: JSONCoding.encode(event))
    }

    func testGrantsAreOncePerPaymentAndAddUp() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let first = PaymentGrantEvent(
                kind: .coins, impUID: "imp_1", appID: PostContractTests.appID, userID: PostContractTests.alice, merchantUID: "m1", coins: 100)
            for expected in [CoinGrantAnswer(coins: 100, granted: true), CoinGrantAnswer(coins: 100, granted: false)] {
                let response = try await Self.grant(client, first)
                XCTAssertEqual(response.status, .ok, response.body.text)
                XCTAssertEqual(try JSONCoding.decoder.decode(CoinGrantAnswer.self, from: response.body), expected)
            }
            var second = first
            (second.impUID, second.coins) = ("imp_2", 550)
            let added = try await Self.grant(client, second)
            XCTAssertEqual(try JSONCoding.decoder.decode(CoinGrantAnswer.self, from: added.body), CoinGrantAnswer(coins: 650, granted: true))
            var invalid = first
            (invalid.impUID, invalid.coins) = ("imp_3", 0)
            let refused = try await Self.grant(client, invalid)
            XCTAssertEqual(refused.status, .badRequest)
        }
    }

    private static func post(_ client: some TestClientProtocol, _ path: String, _ body: some Encodable) async throws -> TestResponse {
        try await client.execute(
            uri: path, method: .post, headers: TestEnvironment.fields(app: PostContractTests.appID, extra: [("content-type", "application/json")]),
            body: JSONCoding.encode(body))
    }

    /// Spends (a workspace's price): once per key, refused when short, given back once, and a key
    /// given back before it was spent can never be spent.
    func testSpendsAreOncePerKeyAndCanBeGivenBack() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let alice = PostContractTests.alice
            _ = try await Self.grant(
                client, PaymentGrantEvent(kind: .coins, impUID: "imp_1", appID: PostContractTests.appID, userID: alice, merchantUID: "m1", coins: 100)
            )
            let spend = CoinSpend(key: "workspace_1", userID: alice, coins: 60)
            for _ in 0..<2 {
                let spent = try await Self.post(client, "/internal/wallets/spends", spend)
                XCTAssertEqual(spent.status, .ok, spent.body.text)
                XCTAssertEqual(
                    try JSONCoding.decoder.decode(CoinBalance.self, from: spent.body), CoinBalance(coins: 40), "a retry spends nothing more")
            }
            let short = try await Self.post(client, "/internal/wallets/spends", CoinSpend(key: "workspace_2", userID: alice, coins: 60))
            XCTAssertEqual(short.status, .badRequest)
            XCTAssertEqual(try JSONCoding.decoder.decode(CanonicalError.self, from: short.body).code, .notEnoughCoins)
            for _ in 0..<2 {
                let returned = try await Self.post(client, "/internal/wallets/spends/returned", CoinSpendKey(key: "workspace_1"))
                XCTAssertEqual(returned.status, .ok)
            }
            let wallet = try await client.execute(
                uri: "/internal/wallets/\(alice)", method: .get, headers: TestEnvironment.fields(app: PostContractTests.appID))
            XCTAssertEqual(try JSONCoding.decoder.decode(CoinBalance.self, from: wallet.body), CoinBalance(coins: 100), "given back once")
            let again = try await Self.post(client, "/internal/wallets/spends", spend)
            XCTAssertEqual(again.status, .conflict, "a spend given back stays given back")
            _ = try await Self.post(client, "/internal/wallets/spends/returned", CoinSpendKey(key: "workspace_3"))
            let late = try await Self.post(client, "/internal/wallets/spends", CoinSpend(key: "workspace_3", userID: alice, coins: 10))
            XCTAssertEqual(late.status, .conflict, "a purchase given up before its spend arrived is never charged")
        }
    }
}
