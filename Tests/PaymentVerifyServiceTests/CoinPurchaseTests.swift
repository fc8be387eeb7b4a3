import Contracts
import Hummingbird
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import PaymentVerifyService

/// `POST /v1/store/pay/validation`: coins bought once per payment.
final class CoinPurchaseTests: XCTestCase {
    private static func buy(
        _ client: some TestClientProtocol, _ harness: PaymentHarness, _ body: String, user: String = PaymentHarness.alice
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/store/pay/validation", method: .post, headers: try await harness.headers(user), body: ByteBuffer(string: body))
    }

    func testCoinsAreGrantedOncePerPayment() async throws {
        let harness = try await PaymentHarness.make()
        let impUID = harness.pg.createPayment(merchantUID: "coins-1", amount: 1000, name: "코인 100개")
        try await harness.app.contractTest { client in
            var answers: [[String: Any]] = []
            for _ in 0..<2 {
                let response = try await Self.buy(client, harness, #"{"imp_uid":"\#(impUID)","merchant_uid":"coins-1"}"#)
                XCTAssertEqual(response.status, .ok, response.body.text)
                answers.append(try JSON.object(response.body))
            }
            JSON.assertKeys(answers[0], ["billing_id", "merchant_uid", "buyer_id", "productName", "price", "sesacCoin", "paidAt"])
            XCTAssertEqual(answers[0]["sesacCoin"] as? Int, 100)
            XCTAssertEqual(answers[0]["price"] as? Int, 1000)
            XCTAssertEqual(answers[0]["buyer_id"] as? String, PaymentHarness.alice)
            XCTAssertEqual(answers[0]["billing_id"] as? String, answers[1]["billing_id"] as? String)
            let granted = await HTTPProbe.eventually(within: .seconds(15)) { () -> Int? in harness.market.coinGrants.withLock { $0[impUID] } }
            XCTAssertEqual(granted, 100)
            XCTAssertEqual(harness.market.coinGrants.withLock { $0.count }, 1)

            let stolen = try await Self.buy(client, harness, #"{"imp_uid":"\#(impUID)","merchant_uid":"coins-1"}"#, user: PaymentHarness.bob)
            XCTAssertEqual(stolen.status.code, 445, "another user cannot claim the payment")
            let odd = harness.pg.createPayment(merchantUID: "coins-2", amount: 1234)
            let oddAnswer = try await Self.buy(client, harness, #"{"imp_uid":"\#(odd)","merchant_uid":"coins-2"}"#)
            XCTAssertEqual(oddAnswer.status, .badRequest)
            XCTAssertEqual(harness.pg.status(of: odd), "cancelled", "no product costs that: refunded")
            let missing = try await Self.buy(client, harness, #"{"imp_uid":"\#(odd)"}"#)
            XCTAssertEqual(missing.status, .badRequest, "merchant_uid required")
            let asOrder = try await client.execute(
                uri: "/v1/payments/validation", method: .post, headers: try await harness.headers(),
                body: ByteBuffer(string: #"{"imp_uid":"\#(impUID)"}"#))
            XCTAssertEqual(asOrder.status, .badRequest, "a coin payment is not an order payment")
        }
    }

    /// Workspace apps (API.md §8): the price list, and a repeated validation refused without a second grant.
    func testTheWorkspacePriceListAndARepeatedValidation() async throws {
        let harness = try await PaymentHarness.make(products: [
            CoinProduct(name: "10 Coin", price: 100, coins: 10), CoinProduct(name: "50 Coin", price: 500, coins: 50),
        ])
        let slp = [(InternalHeader.appProfile, "slp")]
        try await harness.app.contractTest { client in
            let list = try await client.execute(
                uri: "/v1/store/item/list", method: .get, headers: try await harness.headers(PaymentHarness.alice, slp))
            XCTAssertEqual(list.status, .ok)
            let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [[String: Any]], "a bare array")
            XCTAssertEqual(items.count, 2)
            JSON.assertKeys(items[0], ["item_id", "amount", "coin"])
            XCTAssertEqual(items[0]["item_id"] as? String, "10 Coin")
            XCTAssertEqual(items[0]["amount"] as? Int, 100)
            XCTAssertEqual(items[0]["coin"] as? Int, 10)

            let impUID = harness.pg.createPayment(merchantUID: "coins-10", amount: 100, name: "10 Coin")
            let body = ByteBuffer(string: #"{"imp_uid":"\#(impUID)","merchant_uid":"coins-10"}"#)
            let first = try await client.execute(
                uri: "/v1/store/pay/validation", method: .post, headers: try await harness.headers(PaymentHarness.alice, slp), body: body)
            XCTAssertEqual(first.status, .ok, first.body.text)
            XCTAssertEqual(try JSON.object(first.body)["sesacCoin"] as? Int, 10)
            let again = try await client.execute(
                uri: "/v1/store/pay/validation", method: .post, headers: try await harness.headers(PaymentHarness.alice, slp), body: body)
            XCTAssertEqual(again.status, .badRequest)
            XCTAssertEqual(try JSON.object(again.body)["code"] as? String, ErrorCode.paymentInvalid.rawValue)
            let granted = await HTTPProbe.eventually(within: .seconds(15)) { () -> Int? in harness.market.coinGrants.withLock { $0[impUID] } }
            XCTAssertEqual(granted, 10)
            XCTAssertEqual(harness.market.coinGrants.withLock { $0.count }, 1, "no second grant")
        }
    }
}
