import PushService
import TestSupport
import XCTest

final class PushServiceHealthTests: XCTestCase {
    func testServesHealthAndMetrics() async throws {
        try await HealthContract.check(PushAssembly.assemble, service: .push)
    }
}
