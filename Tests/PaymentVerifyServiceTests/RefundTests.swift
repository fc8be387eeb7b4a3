import Contracts
import Hummingbird
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import PaymentVerifyService

/// A payment cancelled or refunded at the PG after its grant (issue 19): the webhook that says
/// so records it, takes the grant back once (the order unpaid, the coins debited), and the
/// receipt shows it.
final class RefundTests: XCTestCase {
    private static func webhook(_ client: some TestClientProtocol, _ harness: PaymentHarness, _ impUID: String) async throws {
        let response = try await client.execute(
            uri: "/v1/payments/webhook?secret=\(PaymentHarness.webhookSecret)", method: .post,
            headers: TestEnvironment.fields(app: nil, extra: [("content-type", "application/json")]),
            body: ByteBuffer(string: harness.pg.webhookBody(impUID)))
        XCTAssertEqual(response.status, .ok)
    }

    private static func receipts(_ client: some TestClientProtocol, _ harness: PaymentHarness) async throws -> [[String: Any]] {
        let response = try await client.execute(uri: "/v1/payments/me", method: .get, headers: try await harness.headers())
        return try XCTUnwrap(try JSON.object(response.body)["data"] as? [[String: Any]])
    }

    func testAnOrderPaymentCancelledAfterItsGrantUnpaysTheOrderOnce() async throws {
        let harness = try await PaymentHarness.make()
        let order = harness.market.order(buyer: PaymentHarness.alice, price: 3000)
        let impUID = harness.pg.createPayment(merchantUID: order.orderCode, amount: 3000)
        try await harness.app.contractTest { client in
            let validated = try await client.execute(
                uri: "/v1/payments/validation", method: .post, headers: try await harness.headers(),
                body: ByteBuffer(string: #"{"imp_uid":"\#(impUID)"}"#))
            XCTAssertEqual(validated.status, .ok, validated.body.text)
            harness.pg.cancelAtConsole(impUID)
            try await Self.webhook(client, harness, impUID)
            let refunded = await HTTPProbe.eventually(within: .seconds(15)) { () -> [String]? in
                harness.market.refunds.withLock { $0.isEmpty ? nil : $0 }
            }
            XCTAssertEqual(refunded, [order.orderCode])
            XCTAssertEqual(harness.market.orders.withLock { $0[order.orderCode]?.paid }, false, "the order is unpaid again")
            let receipts = try await Self.receipts(client, harness)
            XCTAssertEqual(receipts.count, 1)
            XCTAssertEqual(receipts.first?["status"] as? String, "cancelled", "the receipt shows the refund")
            try await Self.webhook(client, harness, impUID)
            let deliveredAgain = await HTTPProbe.eventually(within: .seconds(3)) { () -> Bool? in
                harness.market.refunds.withLock { $0.count > 1 ? true : nil }
            }
            XCTAssertNil(deliveredAgain, "a second webhook takes nothing back twice")
        }
    }

    func testACoinPaymentCancelledAfterItsGrantTakesTheCoinsBack() async throws {
        let harness = try await PaymentHarness.make()
        let impUID = harness.pg.createPayment(merchantUID: "coins-9", amount: 1000, name: "코인 100개")
        try await harness.app.contractTest { client in
            let bought = try await client.execute(
                uri: "/v1/store/pay/validation", method: .post, headers: try await harness.headers(),
                body: ByteBuffer(string: #"{"imp_uid":"\#(impUID)","merchant_uid":"coins-9"}"#))
            XCTAssertEqual(bought.status, .ok, bought.body.text)
            let granted = await HTTPProbe.eventually(within: .seconds(15)) { () -> Int? in harness.market.coinGrants.withLock { $0[impUID] } }
            XCTAssertEqual(granted, 100)
            harness.pg.cancelAtConsole(impUID)
            try await Self.webhook(client, harness, impUID)
            let refunded = await HTTPProbe.eventually(within: .seconds(15)) { () -> [String]? in
                harness.market.refunds.withLock { $0.isEmpty ? nil : $0 }
            }
            XCTAssertEqual(refunded, [impUID])
            XCTAssertNil(harness.market.coinGrants.withLock { $0[impUID] }, "the coins are taken back")
            let receipts = try await Self.receipts(client, harness)
            XCTAssertEqual(receipts.first?["status"] as? String, "cancelled")
        }
    }
}
