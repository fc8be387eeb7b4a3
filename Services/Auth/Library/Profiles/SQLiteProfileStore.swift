import Contracts
import GRDB
import ServiceKit

/// `ProfileStore` on auth-svc's SQLite file.
struct SQLiteProfileStore: ProfileStore {
    let database: any DatabaseWriter

    func profile(of userID: String, appID: String) async throws -> (user: UserRecord, followers: [UserRecord], following: [UserRecord])? {
        try await database.read { db in
            guard let user = try SQLiteUserStore.user(db, id: userID, appID: appID) else { return nil }
            // Cached statements: every profile view runs these; preparing them was most of its cost.
            let followers = try UserRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT user.* FROM follow JOIN user ON user.id = follow.follower_id
                        WHERE follow.following_id = ? ORDER BY follow.created_at DESC
                        """), arguments: [userID])
            let following = try UserRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT user.* FROM follow JOIN user ON user.id = follow.following_id
                        WHERE follow.follower_id = ? ORDER BY follow.created_at DESC
                        """), arguments: [userID])
            return (user, followers, following)
        }
    }

    func updateUser(id: String, appID: String, _ change: @escaping @Sendable (inout UserRecord) throws -> Void) async throws -> UserRecord {
        try await database.write { db in
            guard let before = try SQLiteUserStore.user(db, id: id, appID: appID) else { throw StoreError.callerGone("user no longer exists") }
            var user = before
            try change(&user)
            try user.update(db)
            return before
        }
    }

    func setFollow(
        follower: String, followed: String, appID: String, on: Bool, at time: Int64
    ) async throws -> (follower: UserRecord, followed: UserRecord) {
        try await database.write { db in
            let (me, other) = try Self.pair(db, follower, followed, appID: appID)
            if on {
                do {
                    try db.execute(
                        sql: "INSERT INTO follow (follower_id, following_id, created_at) VALUES (?, ?, ?)", arguments: [me.id, other.id, time])
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw StoreError.conflict("already following")
                }
            } else {
                try db.execute(sql: "DELETE FROM follow WHERE follower_id = ? AND following_id = ?", arguments: [me.id, other.id])
            }
            return (me, other)
        }
    }

    func setBlock(blocker: String, blocked: String, appID: String, on: Bool, at time: Int64) async throws {
        try await database.write { db in
            let (me, other) = try Self.pair(db, blocker, blocked, appID: appID)
            if on {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO block (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)", arguments: [me.id, other.id, time])
                try db.execute(
                    sql: "DELETE FROM follow WHERE (follower_id = ? AND following_id = ?) OR (follower_id = ? AND following_id = ?)",
                    arguments: [me.id, other.id, other.id, me.id])
            } else {
                try db.execute(sql: "DELETE FROM block WHERE blocker_id = ? AND blocked_id = ?", arguments: [me.id, other.id])
            }
        }
    }

    func blockedUsers(of userID: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT blocked_id FROM block WHERE blocker_id = ? ORDER BY created_at", arguments: [userID])
        }
    }

    func hidden(by readerID: String) async throws -> HiddenContent {
        try await database.read { db in
            let users = try String.fetchAll(
                db,
                sql: """
                    SELECT blocked_id FROM block WHERE blocker_id = ?
                    UNION SELECT target_id FROM report WHERE reporter_id = ? AND target_type = 'user'
                    """, arguments: [readerID, readerID])
            let stories = try String.fetchAll(
                db, sql: "SELECT target_id FROM report WHERE reporter_id = ? AND target_type = 'bookstory'", arguments: [readerID])
            return HiddenContent(userIDs: users, storyIDs: stories)
        }
    }

    func insertReport(
        id: String, appID: String, reporterID: String, targetType: String, targetID: String, reason: String, at time: Int64
    ) async throws {
        do {
            try await database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO report (id, app_id, reporter_id, target_type, target_id, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [id, appID, reporterID, targetType, targetID, reason, time])
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StoreError.conflict("already reported")
        }
    }

    func deleteReport(reporterID: String, targetType: String, targetID: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM report WHERE reporter_id = ? AND target_type = ? AND target_id = ?", arguments: [reporterID, targetType, targetID])
            return db.changesCount > 0
        }
    }

    func reports(of reporterID: String) async throws -> [ReportRecord] {
        try await database.read { db in
            try ReportRecord.fetchAll(
                db, sql: "SELECT * FROM report WHERE reporter_id = ? ORDER BY created_at DESC, id DESC LIMIT 1000", arguments: [reporterID])
        }
    }

    func attend(userID: String, day: String, at time: Int64) async throws -> Int {
        try await database.write { db in
            do {
                try db.execute(sql: "INSERT INTO attendance (user_id, day, created_at) VALUES (?, ?, ?)", arguments: [userID, day, time])
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw StoreError.conflict("already attended today")
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attendance WHERE user_id = ?", arguments: [userID]) ?? 0
        }
    }

    /// The caller (`callerGone` when deleted) and the other user (`notFound`) of one app.
    private static func pair(_ db: Database, _ caller: String, _ target: String, appID: String) throws -> (UserRecord, UserRecord) {
        guard let me = try SQLiteUserStore.user(db, id: caller, appID: appID) else { throw StoreError.callerGone("user no longer exists") }
        guard let other = try SQLiteUserStore.user(db, id: target, appID: appID) else { throw StoreError.notFound("no such user") }
        return (me, other)
    }
}
