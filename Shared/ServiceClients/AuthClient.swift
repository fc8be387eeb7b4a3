import Contracts
import ServiceKit

/// auth-svc as every other service calls it, one closure per internal endpoint: users as
/// market-svc and chat-svc render them and whom a caller blocked, workspace members, what a
/// reader hid, and apps by id, key or mount. Tests start from `unimplemented` (a call fails the
/// test) or `failing` (auth-svc is down) and set the closures they expect to be called.
package struct AuthClient: Sendable {
    /// Rendered users (`creator`, `sender`), one batch lookup per page. market-svc, chat-svc.
    package var users: @Sendable (_ ids: [String], _ appID: String, _ requestID: String) async throws -> [String: UserInfoFull]
    /// Whom the user blocked: their content is hidden from the user. market-svc, chat-svc.
    package var blocked: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> Set<String>
    /// Workspace members (API.md §8 **User**), one batch lookup per answer. chat-svc.
    package var members: @Sendable (_ ids: [String], _ appID: String, _ requestID: String) async throws -> [String: SlpUser]
    /// The app's user with that email, for an invitation; nil for none. chat-svc.
    package var memberByEmail: @Sendable (_ email: String, _ appID: String, _ requestID: String) async throws -> SlpUser?
    /// What a reader hid by blocks and reports (API.md §9). market-svc.
    package var hiddenContent: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> HiddenContent
    /// An app's compatibility flags; nil for no such app. chat-svc (sockets without a key).
    package var appFlags: @Sendable (_ appID: String) async throws -> AppFlags?
    /// The app of a `SeSACKey` and until when the key opens it; nil for none. The gateway.
    package var appByKey: @Sendable (_ key: String) async throws -> ResolvedAppKey?
    /// The app mounted at a path prefix; nil for none. The gateway.
    package var appByMount: @Sendable (_ mount: String) async throws -> AppInfo?
    /// Every app. admin-svc.
    package var apps: @Sendable () async throws -> [AppInfo]
    /// Bans a user of the app (new terms replace old ones). admin-svc.
    package var ban: @Sendable (_ userID: String, _ appID: String, _ request: BanRequest, _ requestID: String) async throws -> BanState
    /// Lifts a user's ban (`notFound` when there was none). admin-svc.
    package var unban: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> Void
    /// The app's reports grouped by target, oldest first. admin-svc.
    package var reportQueue: @Sendable (_ appID: String, _ query: ReportQueueQuery, _ requestID: String) async throws -> [ReportGroupAnswer]
    /// How many targets of the app have open reports, and the oldest's age. admin-svc.
    package var openReports: @Sendable (_ appID: String, _ requestID: String) async throws -> OpenReportsSummary
    /// Closes a target's open reports with the action taken. admin-svc.
    package var closeReports: @Sendable (_ appID: String, _ closing: ReportClosing, _ requestID: String) async throws -> ReportsClosed
    /// Users of the app by id, email or nick. admin-svc.
    package var searchUsers: @Sendable (_ appID: String, _ query: UserSearchQuery, _ requestID: String) async throws -> [OperatorUserSummary]
    /// A user's page. admin-svc.
    package var userDetail: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> OperatorUserDetail
    /// Signs a user out everywhere. admin-svc.
    package var signOutUser: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> SignOutAnswer
    /// Deletes an account by its own deletion path. admin-svc.
    package var deleteUser: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> Void

    /// What is kept of users, members and what readers hid is kept until auth-svc announces a
    /// change of users (`changes`: a profile edited, a block, a report, an account gone), which it
    /// does before answering the request that made it; `ttl` only bounds a lost announcement.
    /// Apps' flags are kept for `ttl` (sockets without a key are judged by their room's app on
    /// every connect); keys and mounts are not kept here (the gateway keeps its own).
    package static func live(_ client: InternalClient, changes: any CommitCounter, ttl: Duration = .seconds(30)) -> AuthClient {
        let users = ExpiringCache<String, UserInfoFull>(maxEntries: 50_000)
        let blocked = ExpiringCache<String, Set<String>>(maxEntries: 50_000)
        let members = ExpiringCache<String, SlpUser>(maxEntries: 50_000)
        let hidden = ExpiringCache<String, HiddenContent>(maxEntries: 50_000)
        let flags = ExpiringCache<String, AppFlags?>(maxEntries: 10_000)
        return AuthClient(
            users: { ids, appID, requestID in
                try await users.values(ids, scope: appID, since: changes, ttl: ttl, id: \.userID) { missing in
                    try await client.call(
                        InternalEndpoints.Auth.lookupUsers, body: UserLookupRequest(userIDs: missing), for: .init(appID: appID, requestID: requestID)
                    ).users
                }
            },
            blocked: { userID, appID, requestID in
                try await blocked.value(for: appID + "/" + userID, since: changes, ttl: ttl) {
                    Set(try await client.call(InternalEndpoints.Auth.blockedUsers, userID, for: .init(appID: appID, requestID: requestID)).userIDs)
                }
            },
            members: { ids, appID, requestID in
                try await members.values(ids, scope: appID, since: changes, ttl: ttl, id: \.userID) { missing in
                    try await client.call(
                        InternalEndpoints.Auth.lookupMembers, body: UserLookupRequest(userIDs: missing),
                        for: .init(appID: appID, requestID: requestID)
                    ).users
                }
            },
            memberByEmail: { email, appID, requestID in
                try await absentIfNotFound {
                    try await client.call(
                        InternalEndpoints.Auth.memberByEmail, body: EmailLookup(email: email), for: .init(appID: appID, requestID: requestID))
                }
            },
            hiddenContent: { userID, appID, requestID in
                try await hidden.value(for: appID + "/" + userID, since: changes, ttl: ttl) {
                    try await client.call(InternalEndpoints.Auth.hiddenContent, userID, for: .init(appID: appID, requestID: requestID))
                }
            },
            appFlags: { appID in
                if let cached = flags.value(for: appID) { return cached }
                let found = try await absentIfNotFound { try await client.call(InternalEndpoints.Auth.app, appID).flags }
                flags.store(found, for: appID, ttl: ttl)
                return found
            },
            appByKey: { key in try await absentIfNotFound { try await client.call(InternalEndpoints.Auth.resolveApp, body: AppKeyLookup(key: key)) }
            },
            appByMount: { mount in
                try await absentIfNotFound { try await client.call(InternalEndpoints.Auth.resolveMount, body: AppMountLookup(mount: mount)) }
            },
            apps: { try await client.call(InternalEndpoints.Auth.apps) },
            ban: { userID, appID, request, requestID in
                try await client.call(InternalEndpoints.Auth.banUser, userID, body: request, for: .init(appID: appID, requestID: requestID))
            },
            unban: { userID, appID, requestID in
                _ = try await client.call(InternalEndpoints.Auth.unbanUser, userID, for: .init(appID: appID, requestID: requestID))
            },
            reportQueue: { appID, query, requestID in
                try await client.call(InternalEndpoints.Auth.reportQueue, body: query, for: .init(appID: appID, requestID: requestID))
            },
            openReports: { appID, requestID in
                try await client.call(InternalEndpoints.Auth.openReports, for: .init(appID: appID, requestID: requestID))
            },
            closeReports: { appID, closing, requestID in
                try await client.call(InternalEndpoints.Auth.closeReports, body: closing, for: .init(appID: appID, requestID: requestID))
            },
            searchUsers: { appID, query, requestID in
                try await client.call(InternalEndpoints.Auth.searchUsers, body: query, for: .init(appID: appID, requestID: requestID))
            },
            userDetail: { userID, appID, requestID in
                try await client.call(InternalEndpoints.Auth.userDetail, userID, for: .init(appID: appID, requestID: requestID))
            },
            signOutUser: { userID, appID, requestID in
                try await client.call(InternalEndpoints.Auth.signOutUser, userID, for: .init(appID: appID, requestID: requestID))
            },
            deleteUser: { userID, appID, requestID in
                _ = try await client.call(InternalEndpoints.Auth.deleteUser, userID, for: .init(appID: appID, requestID: requestID))
            }
        )
    }

    /// auth-svc's "no such thing" is an answer, not a failure.
    private static func absentIfNotFound<Answer>(_ call: () async throws -> Answer) async throws -> Answer? {
        do {
            return try await call()
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }

    /// auth-svc down: every call fails as the live client's would.
    package static var failing: AuthClient { every { _ in ServiceError.unavailable(.auth) } }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: AuthClient { every { Unimplemented.call("AuthClient." + $0) } }

    private static func every(_ failure: @escaping @Sendable (_ operation: String) -> any Error) -> AuthClient {
        AuthClient(
            users: { _, _, _ in throw failure("users") }, blocked: { _, _, _ in throw failure("blocked") },
            members: { _, _, _ in throw failure("members") }, memberByEmail: { _, _, _ in throw failure("memberByEmail") },
            hiddenContent: { _, _, _ in throw failure("hiddenContent") }, appFlags: { _ in throw failure("appFlags") },
            appByKey: { _ in throw failure("appByKey") }, appByMount: { _ in throw failure("appByMount") },
            apps: { throw failure("apps") }, ban: { _, _, _, _ in throw failure("ban") }, unban: { _, _, _ in throw failure("unban") },
            reportQueue: { _, _, _ in throw failure("reportQueue") }, openReports: { _, _ in throw failure("openReports") },
            closeReports: { _, _, _ in throw failure("closeReports") },
            searchUsers: { _, _, _ in throw failure("searchUsers") }, userDetail: { _, _, _ in throw failure("userDetail") },
            signOutUser: { _, _, _ in throw failure("signOutUser") }, deleteUser: { _, _, _ in throw failure("deleteUser") }
        )
    }
}

extension Dictionary where Key == String, Value == UserInfoFull {
    /// A looked-up user, or a bare one for an id auth-svc no longer knows (a withdrawn account):
    /// content stays renderable with the non-null fields the apps require.
    package func full(_ id: String) -> UserInfoFull {
        self[id] ?? UserInfoFull(userID: id, nick: "", profileImage: nil, name: "", introduction: "", description: "", hashTags: [])
    }

    package func info(_ id: String) -> UserInfo { full(id).summary }
}

extension Dictionary where Key == String, Value == SlpUser {
    /// A looked-up member, or a bare one for an id auth-svc no longer knows (a withdrawn account).
    package func member(_ id: String) -> SlpUser {
        self[id] ?? SlpUser(userID: id, email: "", nickname: "", profileImage: nil)
    }
}
