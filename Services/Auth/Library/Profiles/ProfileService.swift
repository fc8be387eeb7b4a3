import Contracts
import Foundation
import GRDB
import ServiceKit

/// Profiles, search, follows, blocks, reports and attendance (API.md §1).
struct ProfileService: Sendable {
    let database: any DatabaseWriter
    let users: UserRepository
    let market: MarketClient
    let images: FileStore

    func profile(of userID: String, appID: String, requestID: String) async throws -> ProfileAnswer {
        let (user, followers, following) = try await database.read { db -> (UserRecord, [UserRecord], [UserRecord]) in
            guard let user = try UserRepository.find(db, id: userID, appID: appID) else { throw ServiceError.notFound("no such user") }
            let followers = try UserRecord.fetchAll(db, sql: """
                SELECT user.* FROM follow JOIN user ON user.id = follow.follower_id
                WHERE follow.following_id = ? ORDER BY follow.created_at DESC
                """, arguments: [userID])
            let following = try UserRecord.fetchAll(db, sql: """
                SELECT user.* FROM follow JOIN user ON user.id = follow.following_id
                WHERE follow.follower_id = ? ORDER BY follow.created_at DESC
                """, arguments: [userID])
            return (user, followers, following)
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
    /// removed only after the row points at the new one).
    func update(_ caller: AuthenticatedUser, _ update: ProfileUpdate, image: MultipartForm.Part?) async throws {
        let newImage = try image.map { try images.store([$0])[0] }
        do {
            let previous = try await database.write { db -> String? in
                guard var user = try UserRepository.find(db, id: caller.userID, appID: caller.appID) else {
                    throw ServiceError(.forbidden, "user no longer exists")
                }
                let previous = user.profileImage
                try update.apply(to: &user)
                if let newImage { user.profileImage = newImage }
                user.updatedAt = GlintDate.nowMilliseconds()
                try user.update(db)
                return newImage == nil ? nil : previous
            }
            if let previous { images.remove(publicPath: previous) }
        } catch {
            if let newImage { images.remove(publicPath: newImage) }
            throw error
        }
    }

    func search(nick: String?, appID: String) async throws -> DataList<UserInfo> {
        let query = (nick ?? "").trimmingCharacters(in: .whitespaces)
        guard (1...30).contains(query.count) else { throw ServiceError.badRequest("nick must be 1-30 characters") }
        return DataList(data: try await users.search(nick: query, appID: appID, limit: 50).map(\.info))
    }

    func follow(_ caller: AuthenticatedUser, target: String, on: Bool) async throws -> FollowAnswer {
        guard target != caller.userID else { throw ServiceError.badRequest("cannot follow yourself") }
        return try await database.write { db in
            let (me, other) = try Self.pair(db, caller, target)
            if on {
                do {
                    try db.execute(sql: "INSERT INTO follow (follower_id, following_id, created_at) VALUES (?, ?, ?)",
                                   arguments: [me.id, other.id, GlintDate.nowMilliseconds()])
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw ServiceError(.conflict, "already following")
                }
            } else {
                try db.execute(sql: "DELETE FROM follow WHERE follower_id = ? AND following_id = ?", arguments: [me.id, other.id])
            }
            return FollowAnswer(nick: me.nick, opponentNick: other.nick, followingStatus: on)
        }
    }

    /// Blocking is idempotent both ways; a block also ends follows between the two.
    func block(_ caller: AuthenticatedUser, target: String, on: Bool) async throws -> BlockAnswer {
        guard target != caller.userID else { throw ServiceError.badRequest("cannot block yourself") }
        return try await database.write { db in
            let (me, other) = try Self.pair(db, caller, target)
            if on {
                try db.execute(sql: "INSERT OR IGNORE INTO block (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)",
                               arguments: [me.id, other.id, GlintDate.nowMilliseconds()])
                try db.execute(sql: "DELETE FROM follow WHERE (follower_id = ? AND following_id = ?) OR (follower_id = ? AND following_id = ?)",
                               arguments: [me.id, other.id, other.id, me.id])
            } else {
                try db.execute(sql: "DELETE FROM block WHERE blocker_id = ? AND blocked_id = ?", arguments: [me.id, other.id])
            }
            return BlockAnswer(blocked: on)
        }
    }

    func blockedUsers(of userID: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT blocked_id FROM block WHERE blocker_id = ? ORDER BY created_at", arguments: [userID])
        }
    }

    func report(_ caller: AuthenticatedUser, _ request: ReportRequest) async throws -> ReportAnswer {
        guard ["user", "post", "comment"].contains(request.targetType) else {
            throw ServiceError.badRequest("target_type must be user, post or comment")
        }
        guard ObjectID.isValid(request.targetID) else { throw ServiceError.badRequest("invalid target_id") }
        let reason = request.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...1000).contains(reason.count) else { throw ServiceError.badRequest("reason must be 1-1000 characters") }
        if request.targetType == "user" {
            guard request.targetID != caller.userID else { throw ServiceError.badRequest("cannot report yourself") }
            guard try await users.find(id: request.targetID, appID: caller.appID) != nil else { throw ServiceError.notFound("no such user") }
        }
        let id = ObjectID.generate()
        do {
            try await database.write { db in
                try db.execute(sql: """
                    INSERT INTO report (id, app_id, reporter_id, target_type, target_id, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [id, caller.appID, caller.userID, request.targetType, request.targetID, reason, GlintDate.nowMilliseconds()])
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw ServiceError(.conflict, "already reported")
        }
        return ReportAnswer(reportID: id)
    }

    /// Once per user per calendar day in Asia/Seoul (UTC+9 all year: Korea keeps no DST).
    func attend(_ caller: AuthenticatedUser, now: Int64 = GlintDate.nowMilliseconds()) async throws -> AttendanceAnswer {
        let day = String(GlintDate.string(fromMilliseconds: now + 9 * 3_600_000).prefix(10))
        return try await database.write { db in
            do {
                try db.execute(sql: "INSERT INTO attendance (user_id, day, created_at) VALUES (?, ?, ?)", arguments: [caller.userID, day, now])
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw ServiceError(.conflict, "already attended today")
            }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attendance WHERE user_id = ?", arguments: [caller.userID]) ?? 0
            return AttendanceAnswer(attendanceCount: count)
        }
    }

    private static func pair(_ db: Database, _ caller: AuthenticatedUser, _ target: String) throws -> (UserRecord, UserRecord) {
        guard ObjectID.isValid(target) else { throw ServiceError.badRequest("invalid user id") }
        guard let me = try UserRepository.find(db, id: caller.userID, appID: caller.appID) else { throw ServiceError(.forbidden, "user no longer exists") }
        guard let other = try UserRepository.find(db, id: target, appID: caller.appID) else { throw ServiceError.notFound("no such user") }
        return (me, other)
    }
}
