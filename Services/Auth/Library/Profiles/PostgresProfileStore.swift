import Contracts
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `ProfileStore` on PostgreSQL.
struct PostgresProfileStore: ProfileStore {
    let pool: PostgresPool

    private var logger: Logger { pool.logger }

    func profile(of userID: String, appID: String) async throws -> (user: UserRecord, followers: [UserRecord], following: [UserRecord])? {
        try await pool.read { connection in
            guard let user = try await PostgresUserStore.user(connection, id: userID, appID: appID, logger: logger) else { return nil }
            let followers = try await connection.records(
                UserRecord.self,
                """
                SELECT app_user.* FROM follow JOIN app_user ON app_user.id = follow.follower_id
                WHERE follow.following_id = \(userID) ORDER BY follow.created_at DESC
                """, logger: logger)
            let following = try await connection.records(
                UserRecord.self,
                """
                SELECT app_user.* FROM follow JOIN app_user ON app_user.id = follow.following_id
                WHERE follow.follower_id = \(userID) ORDER BY follow.created_at DESC
                """, logger: logger)
            return (user, followers, following)
        }
    }

    func updateUser(id: String, appID: String, _ change: @escaping @Sendable (inout UserRecord) throws -> Void) async throws -> UserRecord {
        try await pool.transaction { connection in
            guard let before = try await PostgresUserStore.user(connection, id: id, appID: appID, logger: logger, forUpdate: true) else {
                throw StoreError.callerGone("user no longer exists")
            }
            var user = before
            try change(&user)
            try await connection.query(try PostgresColumns(user).update("app_user", key: "id"), logger: logger)
            return before
        }
    }

    func setFollow(
        follower: String, followed: String, appID: String, on: Bool, at time: Int64
    ) async throws -> (follower: UserRecord, followed: UserRecord) {
        try await pool.transaction { connection in
            let (me, other) = try await pair(connection, follower, followed, appID: appID)
            if on {
                let added = try await connection.count(
                    """
                    INSERT INTO follow (follower_id, following_id, created_at) VALUES (\(me.id), \(other.id), \(time)) ON CONFLICT DO NOTHING RETURNING 1
                    """, logger: logger)
                guard added == 1 else { throw StoreError.conflict("already following") }
            } else {
                try await connection.query("DELETE FROM follow WHERE follower_id = \(me.id) AND following_id = \(other.id)", logger: logger)
            }
            return (me, other)
        }
    }

    func setBlock(blocker: String, blocked: String, appID: String, on: Bool, at time: Int64) async throws {
        try await pool.transaction { connection in
            let (me, other) = try await pair(connection, blocker, blocked, appID: appID)
            if on {
                try await connection.query(
                    "INSERT INTO block (blocker_id, blocked_id, created_at) VALUES (\(me.id), \(other.id), \(time)) ON CONFLICT DO NOTHING",
                    logger: logger
                )
                try await connection.query(
                    """
                    DELETE FROM follow WHERE (follower_id = \(me.id) AND following_id = \(other.id)) OR (follower_id = \(other.id) AND following_id = \(me.id))
                    """, logger: logger)
            } else {
                try await connection.query("DELETE FROM block WHERE blocker_id = \(me.id) AND blocked_id = \(other.id)", logger: logger)
            }
        }
    }

    func blockedUsers(of userID: String) async throws -> [String] {
        try await pool.read {
            try await $0.values(String.self, "SELECT blocked_id FROM block WHERE blocker_id = \(userID) ORDER BY created_at", logger: logger)
        }
    }

    func hidden(by readerID: String) async throws -> HiddenContent {
        try await pool.read { connection in
            let users = try await connection.values(
                String.self,
                """
                SELECT blocked_id FROM block WHERE blocker_id = \(readerID)
                UNION SELECT target_id FROM report WHERE reporter_id = \(readerID) AND target_type = 'user'
                """, logger: logger)
            let stories = try await connection.values(
                String.self, "SELECT target_id FROM report WHERE reporter_id = \(readerID) AND target_type = 'bookstory'", logger: logger
            )
            return HiddenContent(userIDs: users, storyIDs: stories)
        }
    }

    func insertReport(
        id: String, appID: String, reporterID: String, targetType: String, targetID: String, reason: String, at time: Int64
    ) async throws {
        try await pool.transaction { connection in
            let added = try await connection.count(
                """
                INSERT INTO report (id, app_id, reporter_id, target_type, target_id, reason, created_at)
                VALUES (\(id), \(appID), \(reporterID), \(targetType), \(targetID), \(reason), \(time)) ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
            guard added == 1 else { throw StoreError.conflict("already reported") }
        }
    }

    func deleteReport(reporterID: String, targetType: String, targetID: String) async throws -> Bool {
        try await pool.transaction { connection in
            try await connection.count(
                """
                DELETE FROM report WHERE reporter_id = \(reporterID) AND target_type = \(targetType) AND target_id = \(targetID) RETURNING 1
                """, logger: logger) > 0
        }
    }

    func reports(of reporterID: String) async throws -> [ReportRecord] {
        try await pool.read {
            try await $0.records(
                ReportRecord.self, "SELECT * FROM report WHERE reporter_id = \(reporterID) ORDER BY created_at DESC, id DESC LIMIT 1000",
                logger: logger)
        }
    }

    func attend(userID: String, day: String, at time: Int64) async throws -> Int {
        try await pool.transaction { connection in
            let added = try await connection.count(
                """
                INSERT INTO attendance (user_id, day, created_at) VALUES (\(userID), \(day), \(time)) ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
            guard added == 1 else { throw StoreError.conflict("already attended today") }
            return Int(try await connection.value(Int64.self, "SELECT count(*) FROM attendance WHERE user_id = \(userID)", logger: logger) ?? 0)
        }
    }

    /// The caller (`callerGone` when deleted) and the other user (`notFound`) of one app.
    private func pair(_ connection: PostgresConnection, _ caller: String, _ target: String, appID: String) async throws -> (UserRecord, UserRecord) {
        guard let me = try await PostgresUserStore.user(connection, id: caller, appID: appID, logger: logger) else {
            throw StoreError.callerGone("user no longer exists")
        }
        guard let other = try await PostgresUserStore.user(connection, id: target, appID: appID, logger: logger) else {
            throw StoreError.notFound("no such user")
        }
        return (me, other)
    }
}
