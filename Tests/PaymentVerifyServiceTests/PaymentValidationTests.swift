import Contracts
import Hummingbird
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import PaymentVerifyService

/// `POST /v1/payments/validation`, the webhook and receipts (API.md §5) against the PortOne simulator.
final class PaymentValidationTests: XCTestCase {
    private static func validate(
        _ client: some TestClientProtocol, _ harness: PaymentHarness, _ body: String, user: String = PaymentHarness.alice
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/payments/validation", method: .post, headers: try await harness.headers(user), body: ByteBuffer(string: body))
    }

    private static func webhook(
        _ client: some TestClientProtocol, _ harness: PaymentHarness, _ impUID: String, query: String = "?secret=\(PaymentHarness.webhookSecret)",
        extra: [(String, String)] = []
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/payments/webhook" + query, method: .post,
            headers: TestEnvironment.fields(app: nil, extra: [("content-type", "application/json")] + extra),
            body: ByteBuffer(string: harness.pg.webhookBody(impUID)))
    }

    func testValidationGrantsAndAnswersTheOrderItem() async throws {
        let harness = try await PaymentHarness.make()
        let order = harness.market.order(buyer: PaymentHarness.alice, price: 3000)
        let impUID = harness.pg.createPayment(merchantUID: order.orderCode, amount: 3000)
        try await harness.app.contractTest { client in
            let response = try await Self.validate(client, harness, #"{"imp_uid":"\#(impUID)"}"#)
            XCTAssertEqual(response.status, .ok, response.body.text)
            let body = try JSON.object(response.body)
            JSON.assertKeys(body, ["payment_id", "order_item", "createdAt", "updatedAt"])
            let item = try XCTUnwrap(body["order_item"] as? [String: Any])
            JSON.assertKeys(item, ["order_id", "order_code", "paidAt", "createdAt", "updatedAt", "filter"])
            XCTAssertEqual(item["order_code"] as? String, order.orderCode)
            let filter = try XCTUnwrap(item["filter"] as? [String: Any])
            JSON.assertKeys(
                filter, ["id", "category", "title", "description", "files", "price", "creator", "filter_values", "createdAt", "updatedAt"])
            let creator = try XCTUnwrap(filter["creator"] as? [String: Any])
            // The full user, as `GET /v1/orders` gives it (API.md §1 "in full" includes description).
            JSON.assertKeys(creator, ["user_id", "nick", "name", "introduction", "description", "hashTags"])
            for key in ["user_id", "nick", "name", "introduction"] { XCTAssertNotNil(creator[key] as? String, "\(key) is a non-null string") }
            XCTAssertEqual(harness.market.paidGrants.withLock { $0 }, 1)

            for id in [order.orderCode, impUID, order.filterID] {
                let receipt = try await client.execute(uri: "/v1/payments/\(id)", method: .get, headers: try await harness.headers())
                XCTAssertEqual(receipt.status, .ok, id)
                let fields = try JSON.object(receipt.body)
                JSON.assertKeys(
                    fields,
                    [
                        "imp_uid", "merchant_uid", "amount", "currency", "status", "pay_method", "pg_provider", "card_name", "name",
                        "buyer_name", "paidAt", "receipt_url",
                    ])
                XCTAssertEqual(fields["amount"] as? Int, 3000)
                XCTAssertEqual(fields["status"] as? String, "paid")
            }
            let others = try await client.execute(uri: "/v1/payments/\(impUID)", method: .get, headers: try await harness.headers(PaymentHarness.bob))
            XCTAssertEqual(others.status, .notFound, "receipts are the buyer's")
            let mine = try await client.execute(uri: "/v1/payments/me", method: .get, headers: try await harness.headers())
            XCTAssertEqual((try JSON.object(mine.body)["data"] as? [[String: Any]])?.map { $0["imp_uid"] as? String }, [impUID])

            // An operator's look at the buyer (admin-svc): the same receipts, within the app only.
            let operatorLook = try await client.execute(
                uri: "/internal/users/\(PaymentHarness.alice)/payments", method: .get, headers: TestEnvironment.fields(app: PaymentHarness.appID))
            XCTAssertEqual(try JSONCoding.decoder.decode(DataList<PaymentReceipt>.self, from: operatorLook.body).data.map(\.impUID), [impUID])
            let otherApp = try await client.execute(
                uri: "/internal/users/\(PaymentHarness.alice)/payments", method: .get, headers: TestEnvironment.fields(app: "another-app"))
            XCTAssertEqual(try JSONCoding.decoder.decode(DataList<PaymentReceipt>.self, from: otherApp.body).data, [])
            let invalid = try await client.execute(
                uri: "/internal/users/nobody/payments", method: .get, headers: TestEnvironment.fields(app: PaymentHarness.appID))
            XCTAssertEqual(invalid.status, .notFound)
        }
    }

    func testValidationTwiceAndWebhookThriceGrantOnce() async throws {
        let harness = try await PaymentHarness.make()
        let order = harness.market.order(buyer: PaymentHarness.alice, price: 5000)
        let impUID = harness.pg.createPayment(merchantUID: order.orderCode, amount: 5000)
        try await harness.app.contractTest { client in
            for _ in 0..<3 {
                let answer = try await Self.webhook(client, harness, impUID)
                XCTAssertEqual(answer.status, .ok, answer.body.text)
                XCTAssertEqual(answer.body.text, "{}")
            }
            var paymentIDs: Set<String> = []
            for _ in 0..<2 {
                let response = try await Self.validate(client, harness, #"{"imp_uid":"\#(impUID)","merchant_uid":"\#(order.orderCode)"}"#)
                XCTAssertEqual(response.status, .ok, response.body.text)
                paymentIDs.insert(try JSON.string(try JSON.object(response.body), "payment_id"))
            }
            XCTAssertEqual(paymentIDs.count, 1, "the same payment answers again")
            let webhooksDone = await HTTPProbe.eventually(within: .seconds(15)) { () -> Bool? in
                let pending = try? await harness.count(sql: "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
                return pending == 0 ? true : nil
            }
            XCTAssertEqual(webhooksDone, true, "webhooks and grants all processed")
            let payments = try await harness.count("payment")
            XCTAssertEqual(payments, 1)
            XCTAssertEqual(harness.market.paidGrants.withLock { $0 }, 1, "granted once")
            XCTAssertTrue(harness.pg.cancelled.isEmpty)
        }
    }

    func testMismatchesAreRefusedRecordedAndCancelledWhereSafe() async throws {
        let harness = try await PaymentHarness.make()
        let order = harness.market.order(buyer: PaymentHarness.alice, price: 3000)
        try await harness.app.contractTest { client in
            let short = harness.pg.createPayment(merchantUID: order.orderCode, amount: 100)
            var response = try await Self.validate(client, harness, #"{"imp_uid":"\#(short)"}"#)
            XCTAssertEqual(response.status, .badRequest)
            XCTAssertTrue(try JSON.string(try JSON.object(response.body), "message").contains("cancelled"))
            XCTAssertEqual(harness.pg.status(of: short), "cancelled", "amount mismatch: cancelled at the PG")

            let bobs = harness.market.order(buyer: PaymentHarness.bob, price: 3000)
            let bobsPayment = harness.pg.createPayment(merchantUID: bobs.orderCode, amount: 3000)
            response = try await Self.validate(client, harness, #"{"imp_uid":"\#(bobsPayment)"}"#)
            XCTAssertEqual(response.status.code, 445, "someone else's order")
            XCTAssertEqual(harness.pg.status(of: bobsPayment), "paid", "a stranger cannot get the buyer's payment cancelled")

            let unpaid = harness.pg.createPayment(merchantUID: order.orderCode, amount: 3000, status: "ready")
            response = try await Self.validate(client, harness, #"{"imp_uid":"\#(unpaid)"}"#)
            XCTAssertEqual(response.status, .badRequest)
            let nowhere = harness.pg.createPayment(merchantUID: "ord_6740369b3a36e82f532ec000", amount: 3000)
            response = try await Self.validate(client, harness, #"{"imp_uid":"\#(nowhere)"}"#)
            XCTAssertEqual(response.status, .badRequest, "unknown order")
            XCTAssertEqual(harness.pg.status(of: nowhere), "cancelled")
            response = try await Self.validate(client, harness, #"{"imp_uid":"imp_000000000000"}"#)
            XCTAssertEqual(response.status, .badRequest, "unknown payment")
            response = try await Self.validate(client, harness, #"{"imp_uid":""}"#)
            XCTAssertEqual(response.status, .badRequest)

            let good = harness.pg.createPayment(merchantUID: order.orderCode, amount: 3000)
            response = try await Self.validate(client, harness, #"{"imp_uid":"\#(good)"}"#)
            XCTAssertEqual(response.status, .ok, response.body.text)
            let second = harness.pg.createPayment(merchantUID: order.orderCode, amount: 3000)
            response = try await Self.validate(client, harness, #"{"imp_uid":"\#(second)"}"#)
            XCTAssertEqual(response.status, .badRequest, "the order is already paid")
            XCTAssertEqual(harness.pg.status(of: second), "cancelled", "a double payment is refunded")

            let attempts = try await harness.count("payment_attempt")
            XCTAssertEqual(attempts, 6, "every refusal is recorded with its reason")
            XCTAssertEqual(harness.market.paidGrants.withLock { $0 }, 1)
        }
    }

    func testPortOneDownIsA503AndALaterRetrySucceeds() async throws {
        let harness = try await PaymentHarness.make()
        let order = harness.market.order(buyer: PaymentHarness.alice, price: 3000)
        let impUID = harness.pg.createPayment(merchantUID: order.orderCode, amount: 3000)
        try await harness.app.contractTest { client in
            harness.pg.setDown(true)
            var response = try await Self.validate(client, harness, #"{"imp_uid":"\#(impUID)"}"#)
            XCTAssertEqual(response.status, .serviceUnavailable)
            XCTAssertFalse(try JSON.string(try JSON.object(response.body), "message").isEmpty)
            let recorded = try await harness.count("payment")
            XCTAssertEqual(recorded, 0, "nothing granted")
            harness.pg.setDown(false)
            harness.pg.fail(next: 2)
            response = try await Self.validate(client, harness, #"{"imp_uid":"\#(impUID)"}"#)
            XCTAssertEqual(response.status, .ok, "two 503s are retried within the request: \(response.body.text)")
            XCTAssertEqual(harness.pg.tokenRequests, 1, "the access token is cached")
        }
    }

    func testMarketDownDuringTheGrantIsGrantedWhenItReturns() async throws {
        let harness = try await PaymentHarness.make()
        let order = harness.market.order(buyer: PaymentHarness.alice, price: 3000)
        let impUID = harness.pg.createPayment(merchantUID: order.orderCode, amount: 3000)
        try await harness.app.contractTest { client in
            // The webhook records the payment and its grant; market-svc is down when the grant is due.
            let response = try await client.execute(
                uri: "/v1/payments/webhook?secret=\(PaymentHarness.webhookSecret)", method: .post,
                headers: TestEnvironment.fields(app: nil, extra: [("content-type", "application/json")]),
                body: ByteBuffer(string: harness.pg.webhookBody(impUID)))
            XCTAssertEqual(response.status, .ok)
            let stored = await HTTPProbe.eventually(within: .seconds(15)) { () -> Bool? in
                ((try? await harness.count("payment")) ?? 0) == 1 ? true : nil
            }
            XCTAssertEqual(stored, true)
            harness.market.down.withLock { $0 = true }
            let validation = try await Self.validate(client, harness, #"{"imp_uid":"\#(impUID)"}"#)
            XCTAssertEqual(validation.status, .serviceUnavailable, "verified, but the order item cannot be rendered yet")
            harness.market.down.withLock { $0 = false }
            let granted = await HTTPProbe.eventually(within: .seconds(15)) { () -> Bool? in
                harness.market.paidGrants.withLock { $0 } == 1 ? true : nil
            }
            XCTAssertEqual(granted, true, "the outbox grants without another request")
        }
    }

    func testWebhookNeedsTheSecretOrAnAllowedAddress() async throws {
        let harness = try await PaymentHarness.make()
        let order = harness.market.order(buyer: PaymentHarness.alice, price: 3000)
        let impUID = harness.pg.createPayment(merchantUID: order.orderCode, amount: 3000)
        try await harness.app.contractTest { client in
            for (query, extra) in [
                ("", [(String, String)]()), ("?secret=wrong-secret-0123456789", []), ("", [(InternalHeader.clientIP, "10.0.0.1")]),
            ] {
                let response = try await Self.webhook(client, harness, impUID, query: query, extra: extra)
                XCTAssertEqual(response.status, .forbidden, query)
            }
            let byHeader = try await Self.webhook(client, harness, impUID, query: "", extra: [("x-webhook-secret", PaymentHarness.webhookSecret)])
            XCTAssertEqual(byHeader.status, .ok)
            let byAddress = try await Self.webhook(client, harness, impUID, query: "", extra: [(InternalHeader.clientIP, "52.78.100.19")])
            XCTAssertEqual(byAddress.status, .ok)
            let granted = await HTTPProbe.eventually(within: .seconds(15)) { () -> Bool? in
                harness.market.paidGrants.withLock { $0 } == 1 ? true : nil
            }
            XCTAssertEqual(granted, true, "a webhook alone grants the buyer's order")
        }
    }
}
