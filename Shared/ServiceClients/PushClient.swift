import Contracts
import ServiceKit

/// push-svc as admin-svc calls it. Tests start from `unimplemented` and set the closures they
/// expect to be called.
package struct PushClient: Sendable {
    /// The devices a user's sessions registered, newest first.
    package var devices: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> [OperatorDeviceSummary]
    /// The app's deliveries per provider over the last `hours`, and its latest failures.
    package var stats: @Sendable (_ hours: Int, _ appID: String, _ requestID: String) async throws -> PushStats
    /// A test notification to a user's devices.
    package var test: @Sendable (_ userID: String, _ request: TestPushRequest, _ appID: String, _ requestID: String) async throws -> TestPushAnswer

    package static func live(_ client: InternalClient) -> PushClient {
        PushClient(
            devices: { userID, appID, requestID in
                try await client.call(InternalEndpoints.Push.userDevices, userID, for: .init(appID: appID, requestID: requestID))
            },
            stats: { hours, appID, requestID in
                try await client.call(
                    InternalEndpoints.Push.stats, body: PushStatsQuery(hours: hours), for: .init(appID: appID, requestID: requestID))
            },
            test: { userID, request, appID, requestID in
                try await client.call(
                    InternalEndpoints.Push.testNotification, userID, body: request, for: .init(appID: appID, requestID: requestID))
            })
    }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: PushClient {
        PushClient(
            devices: { _, _, _ in throw Unimplemented.call("PushClient.devices") },
            stats: { _, _, _ in throw Unimplemented.call("PushClient.stats") },
            test: { _, _, _, _ in throw Unimplemented.call("PushClient.test") })
    }
}
