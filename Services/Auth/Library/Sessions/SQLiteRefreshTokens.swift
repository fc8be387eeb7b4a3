import GRDB

/// The refresh-token rules of a session family on auth-svc's file, each inside its caller's
/// transaction. The session row holds the current generation (`RefreshTokenCodec`): issuing
/// rewrites that row, and a genuine token of an earlier generation is a reuse.
struct SQLiteRefreshTokens: Sendable {
    /// What a refresh needs of its session, read by position in one cached statement.
    private struct Family {
        var userID, appID: String
        var revokedAt: Int64?
        var generation, expiresAt: Int64
        var rotatedAt: Int64?
    }

    let codec: RefreshTokenCodec
    let lifetimeMS: Int64
    let reuseGraceMS: Int64

    private func family(_ db: Database, sessionID: String) throws -> Family? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT user_id, app_id, revoked_at, refresh_generation, refresh_expires_at, refresh_rotated_at FROM session WHERE id = ?
            """), arguments: [sessionID]).map { row in
            Family(userID: row[0], appID: row[1], revokedAt: row[2], generation: row[3], expiresAt: row[4], rotatedAt: row[5])
        }
    }

    /// The token of a new session's first generation; the session row is the caller's insert.
    func first(sessionID: String, now: Int64) -> (claims: RefreshTokenCodec.Claims, token: String) {
        let claims = RefreshTokenCodec.Claims(sessionID: sessionID, generation: 1, expiresAt: now + lifetimeMS)
        return (claims, codec.token(claims))
    }

    /// Exchanges `token` for the family's next one. Within the grace window the token just
    /// exchanged gets the family's current one again (two refreshes of one device at once).
    func rotate(_ db: Database, token: String, sessionID: String, userID: String, now: Int64) throws -> RefreshOutcome {
        switch codec.read(token) {
        case .invalid:
            return .rejected("unknown refresh token")
        case .legacy:
            return try rotateLegacy(db, token: token, sessionID: sessionID, userID: userID, now: now)
        case .current(let claims):
            guard claims.sessionID == sessionID, let family = try family(db, sessionID: sessionID), family.userID == userID else {
                return .rejected("unknown refresh token")
            }
            guard family.revokedAt == nil else { return .rejected("session ended") }
            guard claims.expiresAt > now else { return .rejected("refresh token expired") }
            if claims.generation == family.generation {
                return .rotated(refreshToken: try advance(db, sessionID: sessionID, after: family, now: now))
            }
            if claims.generation == family.generation - 1, let rotatedAt = family.rotatedAt, now - rotatedAt <= reuseGraceMS {
                return .rotated(refreshToken: current(sessionID: sessionID, family))
            }
            guard claims.generation < family.generation else { return .rejected("unknown refresh token") }
            try Self.revoke(db, sessionID: sessionID, reason: "refresh token reused", now: now)
            return .rejected("refresh token reused; please log in again")
        }
    }

    /// The live session `token` proves without exchanging it.
    func session(_ db: Database, token: String, appID: String, now: Int64) throws -> (sessionID: String, userID: String)? {
        switch codec.read(token) {
        case .invalid:
            return nil
        case .legacy:
            guard let legacy = try RefreshTokenRecord.fetchOne(db, key: RefreshTokenCodec.legacyHash(token)),
                  legacy.rotatedAt == nil, legacy.expiresAt > now,
                  let family = try family(db, sessionID: legacy.sessionID), family.revokedAt == nil, family.appID == appID
            else { return nil }
            return (legacy.sessionID, family.userID)
        case .current(let claims):
            guard claims.expiresAt > now, let family = try family(db, sessionID: claims.sessionID),
                  family.revokedAt == nil, family.appID == appID, family.generation == claims.generation
            else { return nil }
            return (claims.sessionID, family.userID)
        }
    }

    /// A token that stays the family's (workspace apps never rotate): answered unchanged.
    func check(_ db: Database, token: String, sessionID: String, userID: String, now: Int64) throws -> RefreshOutcome {
        guard let family = try family(db, sessionID: sessionID), family.userID == userID else { return .rejected("unknown refresh token") }
        let expiresAt: Int64, replaced: Bool
        switch codec.read(token) {
        case .invalid:
            return .rejected("unknown refresh token")
        case .legacy:
            guard let legacy = try RefreshTokenRecord.fetchOne(db, key: RefreshTokenCodec.legacyHash(token)), legacy.sessionID == sessionID else {
                return .rejected("unknown refresh token")
            }
            (expiresAt, replaced) = (legacy.expiresAt, legacy.rotatedAt != nil)
        case .current(let claims):
            guard claims.sessionID == sessionID else { return .rejected("unknown refresh token") }
            (expiresAt, replaced) = (claims.expiresAt, claims.generation != family.generation)
        }
        guard family.revokedAt == nil else { return .rejected("session ended") }
        guard expiresAt > now else { return .rejected("refresh token expired") }
        guard !replaced else { return .rejected("refresh token replaced") }
        return .rotated(refreshToken: token)
    }

    /// For apps that refresh with the access token alone: a live session's next generation; its
    /// earlier tokens (legacy ones too) count as exchanged from now on.
    func rotateWithoutToken(_ db: Database, sessionID: String, userID: String, now: Int64) throws -> RefreshOutcome {
        guard let family = try family(db, sessionID: sessionID), family.userID == userID, family.revokedAt == nil else {
            return .rejected("session ended")
        }
        guard family.expiresAt > now else { return .rejected("refresh token expired") }
        if family.generation == 0 {
            try db.cachedStatement(sql: "UPDATE refresh_token SET rotated_at = ? WHERE session_id = ? AND rotated_at IS NULL")
                .execute(arguments: [now, sessionID])
        }
        return .rotated(refreshToken: try advance(db, sessionID: sessionID, after: family, now: now))
    }

    static func revoke(_ db: Database, sessionID: String, reason: String, now: Int64) throws {
        try SessionRecord.filter(key: sessionID).filter(SessionRecord.Columns.revokedAt == nil)
            .updateAll(db, SessionRecord.Columns.revokedAt.set(to: now), SessionRecord.Columns.revokeReason.set(to: reason))
    }

    /// A token issued before generations: looked up by its hash; once exchanged, its family
    /// continues with generations.
    private func rotateLegacy(_ db: Database, token: String, sessionID: String, userID: String, now: Int64) throws -> RefreshOutcome {
        let hash = RefreshTokenCodec.legacyHash(token)
        guard let legacy = try RefreshTokenRecord.fetchOne(db, key: hash), legacy.sessionID == sessionID,
              let family = try family(db, sessionID: sessionID), family.userID == userID
        else { return .rejected("unknown refresh token") }
        guard family.revokedAt == nil else { return .rejected("session ended") }
        guard legacy.expiresAt > now else { return .rejected("refresh token expired") }
        if let rotatedAt = legacy.rotatedAt {
            if now - rotatedAt > reuseGraceMS {
                try Self.revoke(db, sessionID: sessionID, reason: "refresh token reused", now: now)
                return .rejected("refresh token reused; please log in again")
            }
            if family.generation > 0 { return .rotated(refreshToken: current(sessionID: sessionID, family)) }
        } else {
            try db.cachedStatement(sql: "UPDATE refresh_token SET rotated_at = ? WHERE hash = ?").execute(arguments: [now, hash])
        }
        return .rotated(refreshToken: try advance(db, sessionID: sessionID, after: family, now: now))
    }

    private func current(sessionID: String, _ family: Family) -> String {
        codec.token(RefreshTokenCodec.Claims(sessionID: sessionID, generation: family.generation, expiresAt: family.expiresAt))
    }

    private func advance(_ db: Database, sessionID: String, after family: Family, now: Int64) throws -> String {
        let next = RefreshTokenCodec.Claims(sessionID: sessionID, generation: family.generation + 1, expiresAt: now + lifetimeMS)
        try db.cachedStatement(sql: "UPDATE session SET refresh_generation = ?, refresh_expires_at = ?, refresh_rotated_at = ? WHERE id = ?")
            .execute(arguments: [next.generation, next.expiresAt, now, sessionID])
        return codec.token(next)
    }
}
