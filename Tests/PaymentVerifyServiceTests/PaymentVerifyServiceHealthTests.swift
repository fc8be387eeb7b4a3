import PaymentVerifyService
import TestSupport
import XCTest

final class PaymentVerifyServiceHealthTests: XCTestCase {
    func testServesHealthAndMetrics() async throws {
        try await HealthContract.check(PaymentVerifyAssembly.assemble, service: .paymentVerify)
    }
}
