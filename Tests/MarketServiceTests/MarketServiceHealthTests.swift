import MarketService
import TestSupport
import XCTest

final class MarketServiceHealthTests: XCTestCase {
    func testServesHealthAndMetrics() async throws {
        try await HealthContract.check(MarketService.assemble, service: .market)
    }
}
