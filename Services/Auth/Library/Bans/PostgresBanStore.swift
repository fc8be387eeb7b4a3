import Contracts
import Foundation
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `BanStore` on PostgreSQL; every change also notifies `bans_changed` (a trigger), which wakes
/// the long polls waiting on every replica (`BanBoard`).
struct PostgresBanStore: BanStore {
    let pool: PostgresPool

    func ban(userID: String, appID: String, _ request: BanRequest, at time: Date) async throws -> BanState {
        let record = BanRecord(userID: userID, appID: appID, request, at: time)
        return try await pool.transaction { connection in
            guard
                try await connection.value(Int.self, "SELECT 1 FROM app_user WHERE id = \(userID) AND app_id = \(appID)", logger: pool.logger) != nil
            else {
                throw ServiceError(.userNotFound, "no such user in this app")
            }
            _ = try await connection.query(
                """
                INSERT INTO ban (user_id, app_id, reason, banned_until, operator_id, created_at)
                VALUES (\(record.userID), \(record.appID), \(record.reason), \(record.until), \(record.operatorID), \(record.createdAt))
                ON CONFLICT (user_id) DO UPDATE SET reason = excluded.reason, banned_until = excluded.banned_until,
                    operator_id = excluded.operator_id, created_at = excluded.created_at
                """, logger: pool.logger)
            _ = try await connection.query("UPDATE ban_revision SET revision = revision + 1", logger: pool.logger)
            return record.state
        }
    }

    func unban(userID: String, appID: String) async throws -> Bool {
        try await pool.transaction { connection in
            let removed = try await connection.value(
                String.self, "DELETE FROM ban WHERE user_id = \(userID) AND app_id = \(appID) RETURNING user_id", logger: pool.logger)
            guard removed != nil else { return false }
            _ = try await connection.query("UPDATE ban_revision SET revision = revision + 1", logger: pool.logger)
            return true
        }
    }

    func ban(of userID: String, appID: String, at time: Date) async throws -> BanState? {
        try await pool.read { [logger = pool.logger] in
            try await Self.ban($0, of: userID, appID: appID, at: GlintDate.milliseconds(time), logger: logger)?.state
        }
    }

    /// The user's ban in force at `now` (milliseconds), read on the caller's connection (a rotation's transaction too).
    static func ban(_ connection: PostgresConnection, of userID: String, appID: String, at now: Int64, logger: Logger) async throws -> BanRecord? {
        try await connection.record(
            BanRecord.self, "SELECT * FROM ban WHERE user_id = \(userID) AND app_id = \(appID) AND (banned_until IS NULL OR banned_until > \(now))",
            logger: logger)
    }

    func signOut(userID: String, appID: String, at time: Date) async throws -> Int {
        let now = GlintDate.milliseconds(time)
        return try await pool.transaction { connection in
            guard
                try await connection.value(Int.self, "SELECT 1 FROM app_user WHERE id = \(userID) AND app_id = \(appID)", logger: pool.logger) != nil
            else {
                throw ServiceError(.userNotFound, "no such user in this app")
            }
            let ended = try await connection.values(
                String.self,
                """
                UPDATE session SET revoked_at = \(now), revoke_reason = 'signed out by an operator'
                WHERE user_id = \(userID) AND revoked_at IS NULL RETURNING id
                """, logger: pool.logger
            ).count
            _ = try await connection.query(
                """
                INSERT INTO token_cutoff (user_id, app_id, before_at) VALUES (\(userID), \(appID), \(now))
                ON CONFLICT (user_id) DO UPDATE SET before_at = excluded.before_at
                """, logger: pool.logger)
            _ = try await connection.query("UPDATE ban_revision SET revision = revision + 1", logger: pool.logger)
            return ended
        }
    }

    func snapshot(at time: Date, cutoffsSince: Date) async throws -> RevocationSnapshot {
        let now = GlintDate.milliseconds(time), since = GlintDate.milliseconds(cutoffsSince)
        return try await pool.transaction { connection in
            let revision = try await connection.value(Int64.self, "SELECT revision FROM ban_revision", logger: pool.logger) ?? 0
            let appsRevision = try await connection.value(Int64.self, "SELECT apps_revision FROM ban_revision", logger: pool.logger) ?? 0
            let bans = try await connection.records(
                BanRecord.self, "SELECT * FROM ban WHERE banned_until IS NULL OR banned_until > \(now) ORDER BY user_id", logger: pool.logger)
            let cutoffs = try await connection.rows(
                "SELECT app_id, user_id, before_at FROM token_cutoff WHERE before_at > \(since) ORDER BY user_id", logger: pool.logger
            ) { row in
                TokenCutoff(
                    appID: try row.value("app_id", as: String.self), userID: try row.value("user_id", as: String.self),
                    before: GlintDate.date(fromMilliseconds: try row.value("before_at", as: Int64.self)))
            }
            return RevocationSnapshot(revision: revision, users: bans.map(\.revoked), cutoffs: cutoffs, appsRevision: appsRevision)
        }
    }
}
