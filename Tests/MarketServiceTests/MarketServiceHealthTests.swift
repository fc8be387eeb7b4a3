import MarketService
import TestSupport
import XCTest

final class MarketServiceHealthTests: XCTestCase {
    func testServesHealthAndMetrics() async throws {
        try await HealthContract.check(MarketAssembly.assemble, service: .market)
    }
}
