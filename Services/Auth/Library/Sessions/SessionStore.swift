import Contracts
import Foundation
import GRDB
import ServiceKit

/// Sessions and their rotating refresh tokens.
struct SessionStore: Sendable {
    let database: any DatabaseWriter
    let refreshLifetimeMS: Int64
    let reuseGraceMS: Int64

    enum Refresh: Equatable {
        case rotated(refreshToken: String)
        case rejected(String)
    }

    enum State: Equatable {
        case active, revoked, userGone
    }

    /// Opens a session with its first refresh token, inside the caller's transaction.
    func open(_ db: Database, userID: String, appID: String, deviceToken: String?, now: Int64) throws -> (sessionID: String, refreshToken: String) {
        let session = SessionRecord(id: ObjectID.generate(), appID: appID, userID: userID, deviceToken: deviceToken, createdAt: now)
        try session.insert(db)
        return (session.id, try issueRefreshToken(db, sessionID: session.id, now: now))
    }

    /// Exchanges a refresh token of `sessionID` for a new one. A token used again after the
    /// grace window is a stolen copy or a replay: the whole session dies.
    func rotate(refreshToken: String, sessionID: String, userID: String, now: Int64) async throws -> Refresh {
        try await database.write { db in
            guard let token = try RefreshTokenRecord.fetchOne(db, key: RefreshTokenValue.hash(refreshToken)),
                  token.sessionID == sessionID,
                  let session = try SessionRecord.fetchOne(db, key: sessionID), session.userID == userID
            else { return .rejected("unknown refresh token") }
            guard session.revokedAt == nil else { return .rejected("session ended") }
            guard token.expiresAt > now else { return .rejected("refresh token expired") }
            if let rotatedAt = token.rotatedAt, now - rotatedAt > reuseGraceMS {
                try revoke(db, sessionID: sessionID, reason: "refresh token reused", now: now)
                return .rejected("refresh token reused; please log in again")
            }
            if token.rotatedAt == nil {
                try RefreshTokenRecord.filter(key: token.hash).updateAll(db, RefreshTokenRecord.Columns.rotatedAt.set(to: now))
            }
            return .rotated(refreshToken: try issueRefreshToken(db, sessionID: sessionID, now: now))
        }
    }

    /// For apps with `refresh_with_access_token_only`: a live session gets a new refresh token;
    /// its earlier ones count as rotated from now on.
    func rotateWithoutToken(sessionID: String, userID: String, now: Int64) async throws -> Refresh {
        try await database.write { db in
            guard let session = try SessionRecord.fetchOne(db, key: sessionID), session.userID == userID, session.revokedAt == nil else {
                return .rejected("session ended")
            }
            let live = try RefreshTokenRecord
                .filter(RefreshTokenRecord.Columns.sessionID == sessionID && RefreshTokenRecord.Columns.expiresAt > now)
                .fetchCount(db)
            guard live > 0 else { return .rejected("refresh token expired") }
            try RefreshTokenRecord
                .filter(RefreshTokenRecord.Columns.sessionID == sessionID && RefreshTokenRecord.Columns.rotatedAt == nil)
                .updateAll(db, RefreshTokenRecord.Columns.rotatedAt.set(to: now))
            return .rotated(refreshToken: try issueRefreshToken(db, sessionID: sessionID, now: now))
        }
    }

    func revoke(sessionID: String, reason: String, now: Int64) async throws {
        try await database.write { db in try revoke(db, sessionID: sessionID, reason: reason, now: now) }
    }

    func state(sessionID: String, userID: String) async throws -> State {
        try await database.read { db in
            let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT (SELECT COUNT(*) FROM user WHERE id = ?) AS user_exists,
                       (SELECT COUNT(*) FROM session WHERE id = ? AND user_id = ? AND revoked_at IS NULL) AS session_live
                """), arguments: [userID, sessionID, userID])
            guard let row, row["user_exists"] as Int == 1 else { return .userGone }
            return row["session_live"] as Int == 1 ? .active : .revoked
        }
    }

    private func revoke(_ db: Database, sessionID: String, reason: String, now: Int64) throws {
        try SessionRecord.filter(key: sessionID).filter(SessionRecord.Columns.revokedAt == nil)
            .updateAll(db, SessionRecord.Columns.revokedAt.set(to: now), SessionRecord.Columns.revokeReason.set(to: reason))
    }

    private func issueRefreshToken(_ db: Database, sessionID: String, now: Int64) throws -> String {
        let value = RefreshTokenValue.generate()
        try RefreshTokenRecord(hash: RefreshTokenValue.hash(value), sessionID: sessionID, createdAt: now, expiresAt: now + refreshLifetimeMS).insert(db)
        return value
    }
}
