import Contracts
import ServiceKit

/// payment-verify-svc as admin-svc calls it. Tests start from `unimplemented` and set the
/// closures they expect to be called.
package struct PaymentClient: Sendable {
    /// A user's payments in the app, newest first.
    package var payments: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> [PaymentReceipt]

    package static func live(_ client: InternalClient) -> PaymentClient {
        PaymentClient { userID, appID, requestID in
            try await client.call(InternalEndpoints.PaymentVerify.userPayments, userID, for: .init(appID: appID, requestID: requestID)).data
        }
    }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: PaymentClient { PaymentClient { _, _, _ in throw Unimplemented.call("PaymentClient.payments") } }
}
