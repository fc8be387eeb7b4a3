import Contracts
import Foundation

/// Bans operators placed (`ban`) and the revision every change moves (`ban_revision`), which
/// processes long-poll for (`RevocationSnapshot`).
protocol BanStore: Sendable {
    /// Bans the user of `appID` (replacing an earlier ban's terms); `userNotFound` for a user
    /// not of that app.
    func ban(userID: String, appID: String, _ request: BanRequest, at time: Date) async throws -> BanState
    /// Lifts the ban; false when there was none.
    func unban(userID: String, appID: String) async throws -> Bool
    /// The user's ban in force at `time`, if any.
    func ban(of userID: String, appID: String, at time: Date) async throws -> BanState?
    /// Signs the user out everywhere at `time`: every session revoked, and tokens issued before
    /// `time` refused (a `token_cutoff`); answers how many sessions ended.
    func signOut(userID: String, appID: String, at time: Date) async throws -> Int
    /// Every ban in force at `time` and the sign-outs since `cutoffsSince`, with the revision read
    /// in the same transaction.
    func snapshot(at time: Date, cutoffsSince: Date) async throws -> RevocationSnapshot
}
