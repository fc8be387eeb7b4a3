import Contracts
import Hummingbird
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import PaymentVerifyService

/// admin-svc's view of payments (issue 36): an app's payments by user, order or imp_uid, and a
/// refund that cancels at PortOne (the simulator) and takes the grant back by the path a
/// PortOne-reported cancellation takes: once.
final class OperatorPaymentTests: XCTestCase {
    func testSearchAndARefundThatCancelsAtPortOne() async throws {
        let harness = try await PaymentHarness.make()
        let order = harness.market.order(buyer: PaymentHarness.alice, price: 3000)
        let impUID = harness.pg.createPayment(merchantUID: order.orderCode, amount: 3000)
        try await harness.app.contractTest { client in
            let validated = try await client.execute(
                uri: "/v1/payments/validation", method: .post, headers: try await harness.headers(),
                body: ByteBuffer(string: #"{"imp_uid":"\#(impUID)"}"#))
            XCTAssertEqual(validated.status, .ok, validated.body.text)
            let internalHeaders = TestEnvironment.fields(app: PaymentHarness.appID, extra: [("content-type", "application/json")])
            func search(_ body: String) async throws -> [OperatorPayment] {
                let answer = try await client.execute(
                    uri: "/internal/payments/search", method: .post, headers: internalHeaders, body: ByteBuffer(string: body))
                XCTAssertEqual(answer.status, .ok, answer.body.text)
                return try JSONCoding.decoder.decode([OperatorPayment].self, from: answer.body)
            }
            let byUser = try await search(#"{"userId":"\#(PaymentHarness.alice)","limit":50}"#)
            XCTAssertEqual(byUser.map(\.impUid), [impUID])
            XCTAssertEqual(byUser.first?.status, "paid")
            let (byOrder, none, latest) = (
                try await search(#"{"merchantUid":"\#(order.orderCode)","limit":50}"#), try await search(#"{"impUid":"nope","limit":50}"#),
                try await search(#"{"limit":50}"#)
            )
            XCTAssertEqual(byOrder.count, 1)
            XCTAssertEqual(none.count, 0)
            XCTAssertEqual(latest.count, 1, "no criterion: the latest")
            let otherApp = try await client.execute(
                uri: "/internal/payments/search", method: .post,
                headers: TestEnvironment.fields(app: "another-app", extra: [("content-type", "application/json")]),
                body: ByteBuffer(string: #"{"limit":50}"#))
            XCTAssertEqual(try JSONCoding.decoder.decode([OperatorPayment].self, from: otherApp.body), [], "another app's payments are not shown")

            func refund(_ impUID: String, _ reason: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/internal/payments/\(impUID)/refund", method: .post, headers: internalHeaders,
                    body: ByteBuffer(string: #"{"reason":"\#(reason)"}"#))
            }
            let noReason = try await refund(impUID, "")
            XCTAssertEqual(noReason.status, .badRequest)
            let refunded = try await refund(impUID, "고객 요청")
            XCTAssertEqual(refunded.status, .ok, refunded.body.text)
            let shown = try JSONCoding.decoder.decode(OperatorPayment.self, from: refunded.body)
            XCTAssertEqual(shown.status, "cancelled")
            XCTAssertNotNil(shown.refundedAt)
            XCTAssertEqual(harness.pg.cancelled, [impUID], "cancelled at PortOne")
            let takenBack = await HTTPProbe.eventually(within: .seconds(15)) { () -> [String]? in
                harness.market.refunds.withLock { $0.isEmpty ? nil : $0 }
            }
            XCTAssertEqual(takenBack, [order.orderCode], "the grant is taken back")
            let again = try await refund(impUID, "again")
            XCTAssertEqual(again.status, .conflict)
            let unknown = try await refund("imp_unknown", "x")
            XCTAssertEqual(unknown.status, .notFound)
        }
    }
}
