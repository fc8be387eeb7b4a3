import Contracts
import ServiceKit

/// auth-svc's users as other services need them: rendered (`creator`, `sender`) from one batch
/// lookup per page, and whom a caller blocked (their content is hidden from that caller).
package struct UsersClient: Sendable {
    package var users: @Sendable (_ ids: [String], _ appID: String, _ requestID: String) async throws -> [String: UserInfoFull]
    package var blocked: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> Set<String>

    package init(
        users: @escaping @Sendable (_ ids: [String], _ appID: String, _ requestID: String) async throws -> [String: UserInfoFull],
        blocked: @escaping @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> Set<String>
    ) {
        self.users = users
        self.blocked = blocked
    }

    /// Users and blocked lists are kept until auth-svc announces a change of users (`changes`:
    /// a profile edited, a block, an account gone), which it does before answering the request
    /// that made it; `ttl` only bounds what a lost announcement could leave.
    package static func live(_ client: InternalClient, changes: any CommitCounter, ttl: Duration = .seconds(30)) -> UsersClient {
        let cache = ExpiringCache<String, UserInfoFull>(maxEntries: 50_000)
        let blockedCache = ExpiringCache<String, Set<String>>(maxEntries: 50_000)
        return UsersClient(
            users: { ids, appID, requestID in
                try await cache.values(ids, scope: appID, since: changes, ttl: ttl, id: \.userID) { missing in
                    try await client.call(
                        InternalEndpoints.Auth.lookupUsers, body: UserLookupRequest(userIDs: missing), for: .init(appID: appID, requestID: requestID)
                    ).users
                }
            },
            blocked: { userID, appID, requestID in
                try await blockedCache.value(for: appID + "/" + userID, since: changes, ttl: ttl) {
                    Set(try await client.call(InternalEndpoints.Auth.blockedUsers, userID, for: .init(appID: appID, requestID: requestID)).userIDs)
                }
            }
        )
    }

    /// auth-svc down: every call fails as the live client's would.
    package static let failing = UsersClient(
        users: { _, _, _ in throw ServiceError.unavailable(.auth) },
        blocked: { _, _, _ in throw ServiceError.unavailable(.auth) }
    )

    /// No call expected: the first one fails the running test.
    package static let unimplemented = UsersClient(
        users: { _, _, _ in throw Unimplemented.call("UsersClient.users") },
        blocked: { _, _, _ in throw Unimplemented.call("UsersClient.blocked") }
    )
}

extension Dictionary where Key == String, Value == UserInfoFull {
    /// A looked-up user, or a bare one for an id auth-svc no longer knows (a withdrawn account):
    /// content stays renderable with the non-null fields the apps require.
    package func full(_ id: String) -> UserInfoFull {
        self[id] ?? UserInfoFull(userID: id, nick: "", profileImage: nil, name: "", introduction: "", description: "", hashTags: [])
    }

    package func info(_ id: String) -> UserInfo { full(id).summary }
}
