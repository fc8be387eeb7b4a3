import Contracts
import Foundation
import GRDB
import SQLiteStorage
import ServiceKit

/// `BanStore` on auth-svc's file.
struct SQLiteBanStore: BanStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func ban(userID: String, appID: String, _ request: BanRequest, at time: Date) async throws -> BanState {
        let record = BanRecord(userID: userID, appID: appID, request, at: time)
        return try await database.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ? AND app_id = ?", arguments: [userID, appID]) == true else {
                throw ServiceError(.userNotFound, "no such user in this app")
            }
            try db.execute(
                sql: """
                    INSERT INTO ban (user_id, app_id, reason, banned_until, operator_id, created_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET reason = excluded.reason, banned_until = excluded.banned_until,
                        operator_id = excluded.operator_id, created_at = excluded.created_at
                    """, arguments: [record.userID, record.appID, record.reason, record.until, record.operatorID, record.createdAt])
            try db.execute(sql: "UPDATE ban_revision SET revision = revision + 1")
            return record.state
        }
    }

    func unban(userID: String, appID: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM ban WHERE user_id = ? AND app_id = ?", arguments: [userID, appID])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "UPDATE ban_revision SET revision = revision + 1")
            return true
        }
    }

    func ban(of userID: String, appID: String, at time: Date) async throws -> BanState? {
        try lookups.readNow { db in try Self.ban(db, of: userID, appID: appID, at: GlintDate.milliseconds(time))?.state }
    }

    /// The user's ban in force at `now` (milliseconds), read in the caller's transaction (a rotation's too).
    static func ban(_ db: Database, of userID: String, appID: String, at now: Int64) throws -> BanRecord? {
        // Asked at every sign-in and refresh: compiled once per connection, not each time.
        try BanRecord.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM ban WHERE user_id = ? AND app_id = ? AND (banned_until IS NULL OR banned_until > ?)"),
            arguments: [userID, appID, now])
    }

    func signOut(userID: String, appID: String, at time: Date) async throws -> Int {
        let now = GlintDate.milliseconds(time)
        return try await database.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ? AND app_id = ?", arguments: [userID, appID]) == true else {
                throw ServiceError(.userNotFound, "no such user in this app")
            }
            try db.execute(
                sql: "UPDATE session SET revoked_at = ?, revoke_reason = 'signed out by an operator' WHERE user_id = ? AND revoked_at IS NULL",
                arguments: [now, userID])
            let ended = db.changesCount
            try db.execute(
                sql: """
                    INSERT INTO token_cutoff (user_id, app_id, before_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET before_at = excluded.before_at
                    """, arguments: [userID, appID, now])
            try db.execute(sql: "UPDATE ban_revision SET revision = revision + 1")
            return ended
        }
    }

    func snapshot(at time: Date, cutoffsSince: Date) async throws -> RevocationSnapshot {
        try await database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT revision, apps_revision FROM ban_revision")
            let (revision, appsRevision): (Int64, Int64) = (row?[0] ?? 0, row?[1] ?? 0)
            let bans = try BanRecord.fetchAll(
                db, sql: "SELECT * FROM ban WHERE banned_until IS NULL OR banned_until > ? ORDER BY user_id",
                arguments: [GlintDate.milliseconds(time)])
            let cutoffs = try Row.fetchAll(
                db, sql: "SELECT app_id, user_id, before_at FROM token_cutoff WHERE before_at > ? ORDER BY user_id",
                arguments: [GlintDate.milliseconds(cutoffsSince)]
            ).map { TokenCutoff(appID: $0[0], userID: $0[1], before: GlintDate.date(fromMilliseconds: $0[2])) }
            return RevocationSnapshot(revision: revision, users: bans.map(\.revoked), cutoffs: cutoffs, appsRevision: appsRevision)
        }
    }
}
