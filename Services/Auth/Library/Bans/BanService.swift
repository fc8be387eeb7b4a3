import Contracts
import Foundation
import ServiceKit

/// Operators' bans (asked by admin-svc) and the long poll every process keeps its
/// `RevocationList` current with. A ban is committed, then the polls waiting on every replica
/// wake and answer the new set, so a banned user's next request is refused everywhere once the
/// poll's answer has arrived (milliseconds; measured in the integration test).
struct BanService: Sendable {
    let store: any BanStore
    let board: BanBoard
    /// auth-svc's own verifier's bans: brought up to date before a ban or unban is answered, so
    /// the replica that made it refuses the user's next request without waiting for its poll.
    let list: RevocationList
    /// How long a poll waits for a change before answering the same revision.
    var pollWindow: Duration = .seconds(8)
    var now: @Sendable () -> Date = Date.init

    func ban(userID: String, appID: String, _ request: BanRequest) async throws -> BanState {
        guard ObjectID.isValid(userID) else { throw ServiceError(.userNotFound, "no such user in this app") }
        guard (1...500).contains(request.reason.count) else { throw ServiceError.badRequest("a reason of 1 to 500 characters is required") }
        if let until = request.until, until <= now() { throw ServiceError.badRequest("until must be in the future") }
        let state = try await store.ban(userID: userID, appID: appID, request, at: now())
        try await announce()
        return state
    }

    func unban(userID: String, appID: String) async throws {
        guard ObjectID.isValid(userID), try await store.unban(userID: userID, appID: appID) else {
            throw ServiceError.notFound("this user is not banned")
        }
        try await announce()
    }

    /// Brings this replica's list up to date and wakes the polls waiting here (other replicas'
    /// wake by the tables' notification): after a ban, a sign-out, or an app's change.
    func announce() async throws {
        list.replace(with: try await snapshot())
        board.waiters.changed()
    }

    /// The user's ban in force, if any.
    func ban(of userID: String, appID: String) async throws -> BanState? {
        try await store.ban(of: userID, appID: appID, at: now())
    }

    /// Which of the users are banned now (from the list this process keeps current).
    func banned(among userIDs: [String], appID: String) -> [String] {
        userIDs.filter { list.isBanned(appID: appID, userID: $0) }
    }

    /// Refuses a banned user's sign-in (`banned`) or refresh (`refreshInvalid`, which each
    /// dialect renders as the end of the session).
    func check(userID: String, appID: String, refreshing: Bool = false) async throws {
        guard try await store.ban(of: userID, appID: appID, at: now()) != nil else { return }
        throw refreshing ? ServiceError(.refreshInvalid, Self.suspended) : ServiceError(.banned, Self.suspended)
    }

    /// What a banned user is told, here and by a refused rotation (`RefreshRules.suspended`).
    static let suspended = "this account is suspended"

    /// Signs the user out everywhere: sessions revoked, older tokens refused by every process.
    func signOut(userID: String, appID: String) async throws -> Int {
        guard ObjectID.isValid(userID) else { throw ServiceError(.userNotFound, "no such user in this app") }
        let ended = try await store.signOut(userID: userID, appID: appID, at: now())
        try await announce()
        return ended
    }

    func poll(after revision: Int64) async throws -> RevocationSnapshot {
        let generation = board.waiters.generation
        let snapshot = try await snapshot()
        guard snapshot.revision <= revision else { return snapshot }
        await board.waiters.wait(beyond: generation, timeout: pollWindow)
        return try await self.snapshot()
    }

    /// Sign-outs older than any token still alive need not travel.
    private func snapshot() async throws -> RevocationSnapshot {
        let time = now()
        return try await store.snapshot(at: time, cutoffsSince: time.addingTimeInterval(-Self.cutoffWindow))
    }

    /// Longer than any access token lives (`AUTH_ACCESS_TOKEN_TTL_SECONDS` is at most a day).
    static let cutoffWindow: TimeInterval = 2 * 86_400

    /// auth-svc's own verifier hears of bans from its store, without a call to itself.
    var feed: RevocationFeed { RevocationFeed { after in try await poll(after: after) } }
}
