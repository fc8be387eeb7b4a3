import Contracts
import ServiceKit

/// The services' activity as admin-svc's overview reads it (issue 36): users (auth-svc), posts
/// and stories (market-svc), messages (chat-svc), today's payments (payment-verify-svc), each of
/// one app or (nil) every app. Tests start from `unimplemented`.
package struct ActivityClient: Sendable {
    package var users: @Sendable (_ days: Int, _ appID: String?, _ requestID: String) async throws -> UserActivity
    package var content: @Sendable (_ days: Int, _ appID: String?, _ requestID: String) async throws -> ContentActivity
    package var messages: @Sendable (_ days: Int, _ appID: String?, _ requestID: String) async throws -> MessageActivity
    package var payments: @Sendable (_ appID: String?, _ requestID: String) async throws -> PaymentActivity

    package static func live(_ client: InternalClient) -> ActivityClient {
        ActivityClient(
            users: { days, appID, requestID in
                try await client.call(
                    InternalEndpoints.Activity.users, body: ActivityQuery(days: days), for: .init(appID: appID, requestID: requestID))
            },
            content: { days, appID, requestID in
                try await client.call(
                    InternalEndpoints.Activity.content, body: ActivityQuery(days: days), for: .init(appID: appID, requestID: requestID))
            },
            messages: { days, appID, requestID in
                try await client.call(
                    InternalEndpoints.Activity.messages, body: ActivityQuery(days: days), for: .init(appID: appID, requestID: requestID))
            },
            payments: { appID, requestID in
                try await client.call(
                    InternalEndpoints.Activity.payments, body: ActivityQuery(days: 1), for: .init(appID: appID, requestID: requestID))
            })
    }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: ActivityClient {
        ActivityClient(
            users: { _, _, _ in throw Unimplemented.call("ActivityClient.users") },
            content: { _, _, _ in throw Unimplemented.call("ActivityClient.content") },
            messages: { _, _, _ in throw Unimplemented.call("ActivityClient.messages") },
            payments: { _, _ in throw Unimplemented.call("ActivityClient.payments") })
    }
}
