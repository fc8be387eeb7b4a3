import Contracts
import GRDB
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// What a payment refunded after its grant takes back (issue 19): an order is unpaid again, and
/// coins are debited once per payment, never below zero.
final class RefundTests: XCTestCase {
    typealias Harness = PostContractTests.Harness

    func testARefundedOrderIsUnpaidAgainAndCanBeBoughtAgain() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let internalHeaders = TestEnvironment.fields(app: PostContractTests.appID)
            let id = try JSON.string(
                try JSON.object(
                    try await FilterContractTests.call(
                        client, harness, .post, "/v1/filters", as: PostContractTests.alice,
                        body: FilterContractTests.filter(price: 1500)
                    ).body), "filter_id")
            let order = try await FilterContractTests.call(
                client, harness, .post, "/v1/orders", as: PostContractTests.bob, body: OrderRequest(filterID: id, totalPrice: 1500))
            let code = try JSON.string(try JSON.object(order.body), "order_code")
            let paid = try await client.execute(uri: "/internal/orders/\(code)/paid", method: .post, headers: internalHeaders)
            XCTAssertEqual(paid.status, .ok, paid.body.text)
            for _ in 0..<2 {
                let refunded = try await client.execute(uri: "/internal/orders/\(code)/refunded", method: .post, headers: internalHeaders)
                XCTAssertEqual(refunded.status, .ok, refunded.body.text)
                XCTAssertEqual(try JSON.object(refunded.body)["paid"] as? Bool, false)
            }
            let list = try JSON.object(try await FilterContractTests.call(client, harness, .get, "/v1/orders", as: PostContractTests.bob).body)
            XCTAssertEqual((list["data"] as? [Any])?.count, 0, "no longer among the paid orders")
            let detail = try JSON.object(
                try await FilterContractTests.call(client, harness, .get, "/v1/filters/\(id)", as: PostContractTests.bob).body)
            XCTAssertEqual(detail["is_downloaded"] as? Bool, false)
            let again = try await FilterContractTests.call(
                client, harness, .post, "/v1/orders", as: PostContractTests.bob, body: OrderRequest(filterID: id, totalPrice: 1500))
            XCTAssertEqual(try JSON.object(again.body)["order_code"] as? String, code, "the same order, to pay again")
            let unknown = try await client.execute(
                uri: "/internal/orders/ord_6740369b3a36e82f532ec7ff/refunded", method: .post, headers: internalHeaders)
            XCTAssertEqual(unknown.status, .notFound)
        }
    }

    func testRefundedCoinsAreTakenOnceAndNeverBelowZero() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            func call(_ uri: String, _ event: PaymentGrantEvent) async throws -> [String: Any] {
                let response = try await client.execute(
                    uri: uri, method: .post, headers: TestEnvironment.fields(app: event.appID, extra: [("content-type", "application/json")]),
                    body: JSONCoding.encode(event))
                XCTAssertEqual(response.status, .ok, response.body.text)
                return try JSON.object(response.body)
            }
            let first = PaymentGrantEvent(
                kind: .coins, impUID: "imp_r1", appID: PostContractTests.appID, userID: PostContractTests.alice, merchantUID: "m1", coins: 100)
            var second = first
            (second.impUID, second.coins) = ("imp_r2", 50)
            _ = try await call("/internal/wallets/coins", first)
            _ = try await call("/internal/wallets/coins", second)
            let full = try await call("/internal/wallets/coins/refunds", second)
            XCTAssertEqual(full["coins"] as? Int, 100)
            XCTAssertEqual(full["debited"] as? Int, 50)
            XCTAssertEqual(full["refunded"] as? Bool, true)
            let repeated = try await call("/internal/wallets/coins/refunds", second)
            XCTAssertEqual(repeated["refunded"] as? Bool, false, "once per payment")
            XCTAssertEqual(repeated["coins"] as? Int, 100)
            // 70 of the first payment's 100 coins spent (as a workspace would): only 30 are left to take.
            try await harness.engine.execute("UPDATE wallet SET coins = coins - 70 WHERE user_id = '\(PostContractTests.alice)'")
            let partial = try await call("/internal/wallets/coins/refunds", first)
            XCTAssertEqual(partial["debited"] as? Int, 30)
            XCTAssertEqual(partial["coins"] as? Int, 0, "a wallet never goes below zero")
        }
    }
}
