import Contracts
import ServiceKit

/// payment-verify-svc as admin-svc calls it. Tests start from `unimplemented` and set the
/// closures they expect to be called.
package struct PaymentClient: Sendable {
    /// A user's payments in the app, newest first.
    package var payments: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> [PaymentReceipt]
    /// The app's payments by user, order or imp_uid, newest first.
    package var search: @Sendable (_ search: PaymentSearch, _ appID: String, _ requestID: String) async throws -> [OperatorPayment]
    /// Cancels a payment at PortOne; its grant is taken back.
    package var refund:
        @Sendable (_ impUID: String, _ request: PaymentRefundRequest, _ appID: String, _ requestID: String) async throws -> OperatorPayment

    package static func live(_ client: InternalClient) -> PaymentClient {
        PaymentClient(
            payments: { userID, appID, requestID in
                try await client.call(InternalEndpoints.PaymentVerify.userPayments, userID, for: .init(appID: appID, requestID: requestID)).data
            },
            search: { search, appID, requestID in
                try await client.call(InternalEndpoints.PaymentVerify.searchPayments, body: search, for: .init(appID: appID, requestID: requestID))
            },
            refund: { impUID, request, appID, requestID in
                try await client.call(
                    InternalEndpoints.PaymentVerify.refundPayment, impUID, body: request, for: .init(appID: appID, requestID: requestID))
            })
    }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: PaymentClient {
        PaymentClient(
            payments: { _, _, _ in throw Unimplemented.call("PaymentClient.payments") },
            search: { _, _, _ in throw Unimplemented.call("PaymentClient.search") },
            refund: { _, _, _, _ in throw Unimplemented.call("PaymentClient.refund") })
    }
}
