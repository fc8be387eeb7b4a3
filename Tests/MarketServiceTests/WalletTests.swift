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
        try await client.execute(uri: "/internal/wallets/coins", method: .post,
                                 headers: TestEnvironment.fields(app: event.appID, extra: [("content-type", "application/json")]), body: JSONCoding.encode(event))
    }

    func testGrantsAreOncePerPaymentAndAddUp() async throws {
        let harness = try await Harness.make()
        try await harness.app.test(.router) { client in
            let first = PaymentGrantEvent(kind: .coins, impUID: "imp_1", appID: PostContractTests.appID, userID: PostContractTests.alice, merchantUID: "m1", coins: 100)
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
}
