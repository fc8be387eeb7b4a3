import Contracts
import Hummingbird
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import PaymentVerifyService

/// payment-verify-svc with market-svc down (its `failing` client).
final class DependencyFailureTests: XCTestCase {
    func testAValidationWithoutMarketStoresNothingAndCancelsNothing() async throws {
        let harness = try await PaymentHarness.make(marketClient: .failing)
        let impUID = harness.pg.createPayment(merchantUID: "ord_6740369b3a36e82f532ec7b1", amount: 3000)
        try await harness.app.contractTest { client in
            let response = try await client.execute(
                uri: "/v1/payments/validation", method: .post, headers: try await harness.headers(),
                body: ByteBuffer(string: #"{"imp_uid":"\#(impUID)"}"#))
            XCTAssertEqual(response.status.code, 503)
            XCTAssertEqual(try JSON.object(response.body) as? [String: String], ["code": "unavailable", "message": "market-svc unavailable"])
            // While the service runs: on PostgreSQL its pool closes with it.
            let stored = try await harness.count("payment")
            XCTAssertEqual(stored, 0, "an order that could not be looked up is not verified")
        }
        XCTAssertEqual(harness.pg.status(of: impUID), "paid", "and the buyer's payment is not cancelled: asking again later verifies it")
        XCTAssertEqual(harness.pg.cancelled, [])
    }
}
