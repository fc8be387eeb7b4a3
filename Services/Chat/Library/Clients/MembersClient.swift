import Contracts
import ServiceKit

/// auth-svc's users as workspace members (API.md §8 **User**): by id for rendering, one batch
/// lookup per answer, and by email for invitations.
struct MembersClient: Sendable {
    var users: @Sendable (_ ids: [String], _ appID: String, _ requestID: String) async throws -> [String: SlpUser]
    /// nil when the app has no user with that email.
    var byEmail: @Sendable (_ email: String, _ appID: String, _ requestID: String) async throws -> SlpUser?

    /// Members are kept until auth-svc announces a change of users (`changes`: a nickname or
    /// image edited, an account gone), before it answers the request that made it; `ttl` only
    /// bounds a lost announcement.
    static func live(_ client: InternalClient, changes: any CommitCounter, ttl: Duration = .seconds(30)) -> MembersClient {
        let cache = ExpiringCache<String, SlpUser>(maxEntries: 50_000)
        return MembersClient(
            users: { ids, appID, requestID in
                try await cache.values(ids, scope: appID, since: changes, ttl: ttl, id: \.userID) { missing in
                    try await client.call(
                        InternalEndpoints.Auth.lookupMembers, body: UserLookupRequest(userIDs: missing),
                        for: .init(appID: appID, requestID: requestID)
                    ).users
                }
            },
            byEmail: { email, appID, requestID in
                do {
                    return try await client.call(
                        InternalEndpoints.Auth.memberByEmail, body: EmailLookup(email: email), for: .init(appID: appID, requestID: requestID))
                } catch let error as ServiceError where error.code == .notFound {
                    return nil
                }
            }
        )
    }

    static let failing = MembersClient(
        users: { _, _, _ in throw ServiceError.unavailable(.auth) },
        byEmail: { _, _, _ in throw ServiceError.unavailable(.auth) }
    )

    /// No call expected: the first one fails the running test.
    static let unimplemented = MembersClient(
        users: { _, _, _ in throw Unimplemented.call("MembersClient.users") },
        byEmail: { _, _, _ in throw Unimplemented.call("MembersClient.byEmail") }
    )
}

extension Dictionary where Key == String, Value == SlpUser {
    /// A looked-up member, or a bare one for an id auth-svc no longer knows (a withdrawn account).
    func member(_ id: String) -> SlpUser {
        self[id] ?? SlpUser(userID: id, email: "", nickname: "", profileImage: nil)
    }
}
