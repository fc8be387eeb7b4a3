import Contracts
import ServiceClients
import ServiceKit

/// An app's users as operators see and act on them, shared by the admin API and the console:
/// search, a user's page, ban and its lifting, sign-out everywhere, deletion.
struct UserDesk: Sendable {
    let auth: AuthClient
    let market: MarketClient
    let payments: PaymentClient
    let push: PushClient
    let moderation: ModerationActions
    let audit: AuditLog

    func search(_ app: AppInfo, _ query: String, by op: SignedInOperator) async throws -> [OperatorUserSummary] {
        try await auth.searchUsers(app.appID, UserSearchQuery(query: query), op.requestID)
    }

    /// The user's page: account, sessions, devices, ban, reports; coins and payments for owners
    /// and admins (wallets are not a moderator's).
    func detail(_ app: AppInfo, _ userID: String, by op: SignedInOperator) async throws -> OperatorUserDetail {
        var detail = try await auth.userDetail(userID, app.appID, op.requestID)
        detail.devices = try await push.devices(userID, app.appID, op.requestID)
        if op.record.role != .moderator {
            detail.coins = try await market.coins(userID, app.appID, op.requestID)
            detail.payments = try await payments.payments(userID, app.appID, op.requestID)
        }
        return detail
    }

    func ban(_ app: AppInfo, _ userID: String, _ request: AdminBanRequest, by op: SignedInOperator) async throws -> AdminBanAnswer {
        try await moderation.ban(userID, app: app, reason: request.reason, until: request.until, by: op)
    }

    func unban(_ app: AppInfo, _ userID: String, by op: SignedInOperator) async throws {
        try await auth.unban(userID, app.appID, op.requestID)
        try await audit.record(op, "user.unban", app: app.appID, kind: "user", target: userID)
    }

    func signOut(_ app: AppInfo, _ userID: String, by op: SignedInOperator) async throws -> SignOutAnswer {
        let answer = try await auth.signOutUser(userID, app.appID, op.requestID)
        try await audit.record(op, "user.sign_out", app: app.appID, kind: "user", target: userID, after: JSONText.encode(answer))
        return answer
    }

    /// Deletes the account by its own path (`/auth/revoke`'s); owners and admins only.
    func delete(_ app: AppInfo, _ userID: String, by op: SignedInOperator) async throws {
        guard op.record.role != .moderator else { throw ServiceError(.forbidden, "deleting an account is for owners and admins") }
        let before = try await auth.userDetail(userID, app.appID, op.requestID)
        try await auth.deleteUser(userID, app.appID, op.requestID)
        try await audit.record(op, "user.delete", app: app.appID, kind: "user", target: userID, before: JSONText.encode(before.user))
    }
}
