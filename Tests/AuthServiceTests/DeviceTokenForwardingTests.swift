import Contracts
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// A `deviceToken` sent with join or login reaches push-svc (through auth-svc's outbox) for that
/// login's session: apps that send it only there still get pushes (issue 19).
final class DeviceTokenForwardingTests: XCTestCase {
    func testJoinAndLoginForwardTheirDeviceTokenForTheirSession() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let joined = try await client.send(
                .post, "/v1/users/join", headers: harness.headers(),
                json: JoinRequest(email: "device@glint.app", password: "pass1234!", nick: "dev", deviceToken: "fcm:token-1"))
            XCTAssertEqual(joined.status, .ok, joined.body.text)
            let user = try JSONDecoder().decode(AuthAnswer.self, from: joined.body)
            func login(_ deviceToken: String?) async throws -> AuthAnswer {
                let answer = try await client.send(
                    .post, "/v1/users/login", headers: harness.headers(),
                    json: LoginRequest(email: "device@glint.app", password: "pass1234!", deviceToken: deviceToken))
                XCTAssertEqual(answer.status, .ok, answer.body.text)
                return try JSONDecoder().decode(AuthAnswer.self, from: answer.body)
            }
            let second = try await login("fcm:token-2")
            _ = try await login(nil)
            _ = try await login("not a token")
            let signedOut = try await login("")
            let events = try await harness.push.events(count: 3)
            func session(_ auth: AuthAnswer) throws -> String { try XCTUnwrap(AuthHarness.claims(of: auth.accessToken)).sid }
            XCTAssertEqual(
                events,
                [
                    DeviceTokenEvent(appID: harness.appID, userID: user.userID, sessionID: try session(user), deviceToken: "fcm:token-1"),
                    DeviceTokenEvent(appID: harness.appID, userID: user.userID, sessionID: try session(second), deviceToken: "fcm:token-2"),
                    DeviceTokenEvent(appID: harness.appID, userID: user.userID, sessionID: try session(signedOut), deviceToken: ""),
                ], "one per login that sent a token (an empty one clears that device); none without, none for what is not a token")
        }
    }
}
