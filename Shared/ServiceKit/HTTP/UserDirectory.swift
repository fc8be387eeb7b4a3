import Contracts
import Synchronization

/// Users as other services render them (`creator`, `sender`), from auth-svc's batch lookup: one
/// call per page of content, with a short cache so a busy feed does not ask again per request.
/// Also the caller's blocked users, whose content a feed hides.
public struct UserDirectory: Sendable {
    public var users: @Sendable (_ ids: [String], _ appID: String, _ requestID: String) async throws -> [String: UserInfoFull]
    public var blocked: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> Set<String>

    public init(
        users: @escaping @Sendable (_ ids: [String], _ appID: String, _ requestID: String) async throws -> [String: UserInfoFull],
        blocked: @escaping @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> Set<String>
    ) {
        self.users = users
        self.blocked = blocked
    }

    /// Users are cached for `ttl`; blocked lists for `blockedTTL`, so a new block shows in feeds
    /// within that many seconds without a call to auth-svc on every feed request.
    public static func live(_ client: InternalClient, ttl: Duration = .seconds(30), blockedTTL: Duration = .seconds(3)) -> UserDirectory {
        let cache = Cache(ttl: ttl)
        let blockedCache = BlockedCache(ttl: blockedTTL)
        return UserDirectory(
            users: { ids, appID, requestID in
                var found = cache.lookup(ids, appID: appID)
                let missing = Array(Set(ids).subtracting(found.keys))
                if !missing.isEmpty {
                    let answer = try await client.post(
                        .auth, "/internal/users/lookup", body: UserLookupRequest(userIDs: missing),
                        headers: [(InternalHeader.appID, appID)], requestID: requestID, as: UserLookupAnswer.self
                    )
                    cache.store(answer.users, appID: appID)
                    for user in answer.users { found[user.userID] = user }
                }
                return found
            },
            blocked: { userID, appID, requestID in
                if let cached = blockedCache.lookup(appID + "/" + userID) { return cached }
                let answer = try await client.get(
                    .auth, "/internal/users/\(userID)/blocked", headers: [(InternalHeader.appID, appID)], requestID: requestID, as: UserIDList.self
                )
                let blocked = Set(answer.userIDs)
                blockedCache.store(appID + "/" + userID, blocked)
                return blocked
            }
        )
    }

    /// Recently seen users by app and id, bounded.
    final class Cache: Sendable {
        private struct Entry { var user: UserInfoFull; var expires: ContinuousClock.Instant }
        private let entries = Mutex<[String: Entry]>([:])
        private let ttl: Duration
        private let maxEntries = 50_000

        init(ttl: Duration) {
            self.ttl = ttl
        }

        func lookup(_ ids: [String], appID: String) -> [String: UserInfoFull] {
            let now = ContinuousClock.now
            return entries.withLock { entries in
                var found: [String: UserInfoFull] = [:]
                for id in ids {
                    if let entry = entries[appID + "/" + id], entry.expires > now { found[id] = entry.user }
                }
                return found
            }
        }

        func store(_ users: [UserInfoFull], appID: String) {
            let expires = ContinuousClock.now + ttl
            entries.withLock { entries in
                if entries.count + users.count > maxEntries { entries.removeAll(keepingCapacity: true) }
                for user in users { entries[appID + "/" + user.userID] = Entry(user: user, expires: expires) }
            }
        }
    }

    /// Recently fetched blocked lists, bounded.
    final class BlockedCache: Sendable {
        private let entries = Mutex<[String: (blocked: Set<String>, expires: ContinuousClock.Instant)]>([:])
        private let ttl: Duration

        init(ttl: Duration) {
            self.ttl = ttl
        }

        func lookup(_ key: String) -> Set<String>? {
            let now = ContinuousClock.now
            return entries.withLock { entries in entries[key].flatMap { $0.expires > now ? $0.blocked : nil } }
        }

        func store(_ key: String, _ blocked: Set<String>) {
            let expires = ContinuousClock.now + ttl
            entries.withLock { entries in
                if entries.count >= 50_000 { entries.removeAll(keepingCapacity: true) }
                entries[key] = (blocked, expires)
            }
        }
    }
}

extension Dictionary where Key == String, Value == UserInfoFull {
    /// A looked-up user, or a bare one for an id auth-svc no longer knows (a withdrawn account):
    /// content stays renderable with the non-null fields the apps require.
    public func full(_ id: String) -> UserInfoFull {
        self[id] ?? UserInfoFull(userID: id, nick: "", profileImage: nil, name: "", introduction: "", description: "", hashTags: [])
    }

    public func info(_ id: String) -> UserInfo { full(id).summary }
}
