import Contracts
import Logging
import ServiceKit

/// The services that keep copies of auth-svc's users (market-svc: users, blocked lists, what a
/// reader hid; chat-svc: users, members, blocked lists), told that one changed after the commit
/// and before the request that changed it is answered, so the user's next request sees it there.
struct UsersChangedClient: Sendable {
    var changed: @Sendable (_ userID: String, _ appID: String, _ requestID: String?) async -> Void

    /// Both at once. A service that cannot be told is logged: its copy follows within the copy's
    /// time limit (30 s).
    static func live(_ client: InternalClient, logger: Logger) -> UsersChangedClient {
        UsersChangedClient { userID, appID, requestID in
            await withTaskGroup(of: Void.self) { group in
                for endpoint in [InternalEndpoints.Market.usersChanged, InternalEndpoints.Chat.usersChanged] {
                    group.addTask {
                        do {
                            _ = try await client.call(endpoint, userID, for: .init(appID: appID, requestID: requestID))
                        } catch {
                            logger.warning(
                                "a service keeping copies of users could not be told of a change",
                                metadata: [
                                    "service": .string(endpoint.service.rawValue), "user_id": .string(userID),
                                    "error": .string(String(describing: error)),
                                ])
                        }
                    }
                }
            }
        }
    }

    /// No change expected: the first one fails the running test.
    static let unimplemented = UsersChangedClient { _, _, _ in _ = Unimplemented.call("UsersChangedClient.changed") }
}
