import Contracts
import FileStorage
import Foundation
import ServiceClients
import ServiceKit

/// Profiles, search, follows, blocks, reports and attendance (API.md §1).
struct ProfileService: Sendable {
    let store: any ProfileStore
    let users: any UserStore
    let market: MarketClient
    let images: FileStore
    /// Told after every change that other services' copies of users show (profile, blocks, reports).
    let usersChanged: UsersChangedClient

    func profile(of userID: String, appID: String, requestID: String) async throws -> ProfileAnswer {
        guard let (user, followers, following) = try await store.profile(of: userID, appID: appID) else {
            throw ServiceError.notFound("no such user")
        }
        // Until market-svc answers, a profile lists no posts rather than failing.
        let postIDs = (try? await market.postIDs(userID, appID, requestID)) ?? []
        return ProfileAnswer(
            userID: user.id, email: user.email, nick: user.nick, profileImage: user.profileImage, phoneNum: user.phoneNum,
            gender: user.gender, birthDay: user.birthDay, info: [user.info1, user.info2, user.info3, user.info4, user.info5],
            followers: followers.map(\.info), following: following.map(\.info), posts: postIDs, name: user.name,
            introduction: user.introduction, description: user.description, hashTags: user.tags
        )
    }

    /// Applies the update and, when given, the new profile image (stored first, the old one
    /// removed only after the user points at the new one).
    func update(_ caller: AuthenticatedUser, _ update: ProfileUpdate, image: MultipartForm.Part?) async throws {
        let now = GlintDate.nowMilliseconds()
        let before = try await images.storing(image.map { [$0] } ?? [], appID: caller.appID) { paths in
            try await store.updateUser(id: caller.userID, appID: caller.appID) { user in
                try update.apply(to: &user)
                if let newImage = paths.first { user.profileImage = newImage }
                user.updatedAt = now
            }
        }
        if image != nil, let previous = before.profileImage { await images.remove(publicPath: previous, appID: caller.appID) }
        await usersChanged.changed(caller.userID, caller.appID, nil)
    }

    func search(nick: String?, appID: String) async throws -> DataList<UserInfo> {
        let query = try FieldRule.text(nick ?? "", "nick", 1...30, trimming: .whitespaces)!
        return DataList(data: try await users.search(nick: query, appID: appID, limit: 50).map(\.info))
    }

    func follow(_ caller: AuthenticatedUser, target: String, on: Bool) async throws -> FollowAnswer {
        guard target != caller.userID else { throw ServiceError.badRequest("cannot follow yourself") }
        guard ObjectID.isValid(target) else { throw ServiceError.badRequest("invalid user id") }
        let (me, other) = try await store.setFollow(
            follower: caller.userID, followed: target, appID: caller.appID, on: on, at: GlintDate.nowMilliseconds())
        return FollowAnswer(nick: me.nick, opponentNick: other.nick, followingStatus: on)
    }

    /// Blocking is idempotent both ways; a block also ends follows between the two.
    func block(_ caller: AuthenticatedUser, target: String, on: Bool) async throws -> BlockAnswer {
        guard target != caller.userID else { throw ServiceError.badRequest("cannot block yourself") }
        guard ObjectID.isValid(target) else { throw ServiceError.badRequest("invalid user id") }
        try await store.setBlock(blocker: caller.userID, blocked: target, appID: caller.appID, on: on, at: GlintDate.nowMilliseconds())
        await usersChanged.changed(caller.userID, caller.appID, nil)
        return BlockAnswer(blocked: on)
    }

    func blockedUsers(of userID: String) async throws -> [String] {
        try await store.blockedUsers(of: userID)
    }

    func hidden(by readerID: String) async throws -> HiddenContent {
        try await store.hidden(by: readerID)
    }

    func report(_ caller: AuthenticatedUser, _ request: ReportRequest) async throws -> ReportAnswer {
        guard ["user", "post", "comment"].contains(request.targetType) else {
            throw ServiceError.badRequest("target_type must be user, post or comment")
        }
        let reason = try FieldRule.text(request.reason, "reason", 1...1000, trimming: .whitespacesAndNewlines)!
        return ReportAnswer(reportID: try await report(caller, targetType: request.targetType, targetID: request.targetID, reason: reason))
    }

    /// Records a report (once per reporter and target: `conflict` again); a reported user must
    /// exist and not be the caller. Answers its id.
    func report(_ caller: AuthenticatedUser, targetType: String, targetID: String, reason: String) async throws -> String {
        guard ObjectID.isValid(targetID) else { throw ServiceError.badRequest("invalid target id") }
        if targetType == "user" {
            guard targetID != caller.userID else { throw ServiceError.badRequest("cannot report yourself") }
            guard try await users.user(id: targetID, appID: caller.appID) != nil else { throw ServiceError.notFound("no such user") }
        }
        let id = ObjectID.generate()
        try await store.insertReport(
            id: id, appID: caller.appID, reporterID: caller.userID, targetType: targetType, targetID: targetID,
            reason: reason, at: GlintDate.nowMilliseconds())
        await usersChanged.changed(caller.userID, caller.appID, nil)
        return id
    }

    /// Withdraws the caller's report (`notFound` when there is none).
    func cancelReport(_ caller: AuthenticatedUser, targetType: String, targetID: String) async throws {
        guard try await store.deleteReport(reporterID: caller.userID, targetType: targetType, targetID: targetID) else {
            throw ServiceError.notFound("no such report")
        }
        await usersChanged.changed(caller.userID, caller.appID, nil)
    }

    /// The caller's reports, newest first.
    func reports(of caller: AuthenticatedUser) async throws -> [ReportRecord] {
        try await store.reports(of: caller.userID)
    }

    /// Once per user per calendar day in Asia/Seoul (UTC+9 all year: Korea keeps no DST).
    func attend(_ caller: AuthenticatedUser, now: Int64 = GlintDate.nowMilliseconds()) async throws -> AttendanceAnswer {
        let day = String(GlintDate.string(fromMilliseconds: now + 9 * 3_600_000).prefix(10))
        return AttendanceAnswer(attendanceCount: try await store.attend(userID: caller.userID, day: day, at: now))
    }
}
