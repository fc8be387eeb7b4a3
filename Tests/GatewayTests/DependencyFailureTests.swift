import Contracts
import HummingbirdTesting
import ServiceClients
import ServiceKit
import TestSupport
import XCTest

@testable import Gateway

/// The gateway with auth-svc's key lookup down (its `failing` client).
final class DependencyFailureTests: XCTestCase {
    func testKeyedRequestsAnswer503AndKeylessRoutesStillPassWhileAuthIsDown() async throws {
        let fakes = GatewayTests.FakeServices()
        try await GatewayTests.makeApp(fakes, appKeys: .failing).test(.router) { client in
            let keyed = try await client.execute(uri: "/v1/posts", method: .get, headers: [.init("SeSACKey")!: "key-lslp"])
            XCTAssertEqual(keyed.status.code, 503)
            XCTAssertEqual(try JSON.object(keyed.body) as? [String: String], ["message": "auth-svc unavailable"])
            XCTAssertNil(fakes.last, "nothing was forwarded")
            let webhook = try await client.execute(uri: "/v1/payments/webhook", method: .post)
            XCTAssertEqual(webhook.status, .ok, "a route that needs no key does not ask auth-svc")
            XCTAssertEqual(fakes.last?.0, .paymentVerify)
        }
    }
}
