import Contracts
import ServiceKit

/// push-svc as admin-svc calls it. Tests start from `unimplemented` and set the closures they
/// expect to be called.
package struct PushClient: Sendable {
    /// The devices a user's sessions registered, newest first.
    package var devices: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> [OperatorDeviceSummary]

    package static func live(_ client: InternalClient) -> PushClient {
        PushClient { userID, appID, requestID in
            try await client.call(InternalEndpoints.Push.userDevices, userID, for: .init(appID: appID, requestID: requestID))
        }
    }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: PushClient { PushClient { _, _, _ in throw Unimplemented.call("PushClient.devices") } }
}
