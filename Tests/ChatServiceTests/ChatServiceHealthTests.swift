import ChatService
import TestSupport
import XCTest

final class ChatServiceHealthTests: XCTestCase {
    func testServesHealthAndMetrics() async throws {
        try await HealthContract.check(ChatAssembly.assemble, service: .chat)
    }
}
