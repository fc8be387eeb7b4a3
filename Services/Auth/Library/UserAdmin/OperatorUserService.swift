import Contracts
import Foundation
import ServiceKit

/// Users as operators see and act on them (admin-svc asks): search, a user's page, sign-out
/// everywhere, and deletion by the account's own deletion path.
struct OperatorUserService: Sendable {
    let store: any UserAdminStore
    let users: any UserStore
    let bans: BanService
    let accounts: AccountService

    static let listed = 50

    /// The overview's users: the app's (nil: every app's) over the last `days`.
    func activity(_ query: ActivityQuery, appID: String?) async throws -> UserActivity {
        guard (1...90).contains(query.days) else { throw ServiceError.badRequest("days must be 1 to 90") }
        let today = ActivityQuery.day(GlintDate.nowMilliseconds())
        let (total, new, active) = try await store.activity(appID: appID, since: (today - Int64(query.days) + 1) * 86_400_000)
        return UserActivity(
            total: total, newUsers: DailyCount.series(new, days: query.days, today: today),
            activeUsers: DailyCount.series(active, days: query.days, today: today))
    }

    func search(_ query: UserSearchQuery, appID: String) async throws -> [OperatorUserSummary] {
        let text = query.query.trimmingCharacters(in: .whitespaces)
        guard (1...100).contains(text.count) else { throw ServiceError.badRequest("a search of 1 to 100 characters") }
        guard (1...100).contains(query.limit) else { throw ServiceError.badRequest("limit must be 1 to 100") }
        let found = try await store.search(text, by: UserSearchMode(text), appID: appID, limit: query.limit)
        let banned = Set(bans.banned(among: found.map(\.id), appID: appID))
        return found.map { Self.summary($0, banned: banned.contains($0.id)) }
    }

    func detail(of userID: String, appID: String) async throws -> OperatorUserDetail {
        guard ObjectID.isValid(userID), let user = try await users.user(id: userID, appID: appID) else {
            throw ServiceError(.userNotFound, "no such user in this app")
        }
        let ban = try await bans.ban(of: userID, appID: appID)
        return OperatorUserDetail(
            user: Self.summary(user, banned: ban != nil), provider: try await users.provider(of: user),
            sessions: try await store.sessions(of: userID, limit: Self.listed).map(Self.session),
            ban: ban.map(AdminBanAnswer.init), reportsBy: try await store.reports(by: userID, limit: Self.listed).map(Self.report),
            reportsAgainst: try await store.reports(against: userID, appID: appID, limit: Self.listed).map(Self.report))
    }

    /// The account's own deletion (`/auth/revoke`'s path): gone at once, its content through market-svc.
    func delete(_ userID: String, appID: String) async throws {
        guard ObjectID.isValid(userID), try await users.user(id: userID, appID: appID) != nil else {
            throw ServiceError(.userNotFound, "no such user in this app")
        }
        try await accounts.revoke(AuthenticatedUser(userID: userID, appID: appID, sessionID: "", expiresAt: .distantFuture))
    }

    static func summary(_ user: UserRecord, banned: Bool) -> OperatorUserSummary {
        OperatorUserSummary(
            id: user.id, email: user.email, nick: user.nick, createdAt: GlintDate.string(fromMilliseconds: user.createdAt), banned: banned)
    }

    static func session(_ session: SessionRecord) -> OperatorSessionSummary {
        OperatorSessionSummary(
            id: session.id, createdAt: GlintDate.string(fromMilliseconds: session.createdAt),
            revokedAt: session.revokedAt.map(GlintDate.string(fromMilliseconds:)), revokeReason: session.revokeReason,
            hasDeviceToken: !(session.deviceToken ?? "").isEmpty)
    }

    static func report(_ report: QueuedReport) -> OperatorReportSummary {
        OperatorReportSummary(
            id: report.id, reporterId: report.reporterID, targetType: report.targetType, targetId: report.targetID, reason: report.reason,
            createdAt: GlintDate.string(fromMilliseconds: report.createdAt), action: report.action)
    }

}
