import GeoService
import TestSupport
import XCTest

final class GeoServiceHealthTests: XCTestCase {
    func testServesHealthAndMetrics() async throws {
        try await HealthContract.check(GeoAssembly.assemble, service: .geo)
    }
}
