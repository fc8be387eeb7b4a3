import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// auth-svc with market-svc down (its `failing` client).
final class DependencyFailureTests: XCTestCase {
    func testAProfileListsNoPostsWhileMarketIsDown() async throws {
        let harness = try await AuthHarness.make(market: .failing)
        try await harness.app.contractTest { client in
            let user = try await client.join(harness, email: "down@glint.app")
            let profile = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: user.accessToken))
            XCTAssertEqual(profile.status, .ok, "a profile does not fail with market-svc")
            XCTAssertEqual(try JSON.object(profile.body)["posts"] as? [String], [])
        }
    }
}
