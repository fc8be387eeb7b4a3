import Contracts

/// Profiles and the relations between users: follows, blocks, reports, attendance.
protocol ProfileStore: Sendable {
    /// The user with who follows them and whom they follow, newest first; nil for no such user.
    func profile(of userID: String, appID: String) async throws -> (user: UserRecord, followers: [UserRecord], following: [UserRecord])?
    /// Changes the user in one transaction and answers the record as it was before
    /// (`StoreError.callerGone` when the user no longer exists).
    func updateUser(id: String, appID: String, _ change: @escaping @Sendable (inout UserRecord) throws -> Void) async throws -> UserRecord
    /// Follows (`StoreError.conflict` when already following) or unfollows; answers both users.
    func setFollow(
        follower: String, followed: String, appID: String, on: Bool, at time: Int64
    ) async throws -> (follower: UserRecord, followed: UserRecord)
    /// Blocks (idempotent; ends follows both ways) or unblocks.
    func setBlock(blocker: String, blocked: String, appID: String, on: Bool, at time: Int64) async throws
    /// Whom a user blocked, oldest first.
    func blockedUsers(of userID: String) async throws -> [String]
    /// What a reader hid (API.md §9): users blocked or reported, and book stories reported; read
    /// in one snapshot.
    func hidden(by readerID: String) async throws -> HiddenContent
    /// `StoreError.conflict` when the reporter already reported the target.
    func insertReport(
        id: String, appID: String, reporterID: String, targetType: String, targetID: String, reason: String, at time: Int64) async throws
    /// Removes a report; false when there was none.
    func deleteReport(reporterID: String, targetType: String, targetID: String) async throws -> Bool
    /// A reporter's reports, newest first.
    func reports(of reporterID: String) async throws -> [ReportRecord]
    /// The user's attendance of `day` (`StoreError.conflict` when already recorded), answering
    /// how many days they attended.
    func attend(userID: String, day: String, at time: Int64) async throws -> Int
}
