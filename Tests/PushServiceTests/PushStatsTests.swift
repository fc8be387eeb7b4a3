import Contracts
import Hummingbird
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import PushService

/// Push as operators see it (issue 36): an app's deliveries per provider and its latest
/// failures (tokens by their end only), and a test notification that reaches the user's device.
final class PushStatsTests: XCTestCase {
    func testStatsCountDeliveriesAndATestNotificationArrives() async throws {
        let harness = try await PushHarness.make()
        try await harness.app.contractTest { client in
            for (user, token) in [(PushHarness.bob, PushContractTests.bobToken), (PushHarness.carol, PushContractTests.carolToken)] {
                let registered = try await client.execute(
                    uri: "/v1/users/deviceToken", method: .put, headers: try await harness.headers(user),
                    body: JSONCoding.encode(DeviceTokenRequest(deviceToken: token)))
                XCTAssertEqual(registered.status, .ok)
            }
            harness.fcm.unregister(PushContractTests.bobToken)
            let internalHeaders = TestEnvironment.fields(app: PushHarness.appID, extra: [("content-type", "application/json")])
            let test = try await client.execute(
                uri: "/internal/users/\(PushHarness.carol)/test-notification", method: .post, headers: internalHeaders,
                body: JSONCoding.encode(TestPushRequest(title: "테스트", body: "콘솔에서")))
            XCTAssertEqual(test.status, .ok, test.body.text)
            XCTAssertEqual(try JSONCoding.decoder.decode(TestPushAnswer.self, from: test.body).deliveries, 1)
            let received = await harness.received(1)
            XCTAssertEqual(received.first?.token, PushContractTests.carolToken)
            _ = try await client.execute(
                uri: "/internal/users/\(PushHarness.bob)/test-notification", method: .post, headers: internalHeaders,
                body: JSONCoding.encode(TestPushRequest(title: "t", body: "b")))
            let dead = await HTTPProbe.eventually(within: .seconds(20)) { () -> Int? in
                let count = (try? await harness.deliveries("dead")) ?? 0
                return count == 1 ? count : nil
            }
            XCTAssertEqual(dead, 1)

            let answer = try await client.execute(
                uri: "/internal/push/stats", method: .post, headers: internalHeaders, body: JSONCoding.encode(PushStatsQuery(hours: 24)))
            XCTAssertEqual(answer.status, .ok, answer.body.text)
            let stats = try JSONCoding.decoder.decode(PushStats.self, from: answer.body)
            XCTAssertEqual(stats.notifications, 2)
            XCTAssertEqual(stats.providers, [ProviderDeliveries(provider: "fcm", sent: 1, failed: 0, dead: 1, pending: 0)])
            XCTAssertEqual(stats.recentFailures.map(\.targetEnd), [String(PushContractTests.bobToken.suffix(6))])
            XCTAssertEqual(stats.recentFailures.first?.state, "dead")
            let other = try await client.execute(
                uri: "/internal/push/stats", method: .post,
                headers: TestEnvironment.fields(app: "another-app", extra: [("content-type", "application/json")]),
                body: JSONCoding.encode(PushStatsQuery(hours: 24)))
            XCTAssertEqual(try JSONCoding.decoder.decode(PushStats.self, from: other.body).notifications, 0, "another app's are not counted")
            let badWindow = try await client.execute(
                uri: "/internal/push/stats", method: .post, headers: internalHeaders, body: JSONCoding.encode(PushStatsQuery(hours: 0)))
            XCTAssertEqual(badWindow.status, .badRequest)
        }
    }
}
