import GRDB

/// `RefreshRules` on auth-svc's SQLite file, each inside its caller's transaction, plus the
/// tokens issued before generations (`refresh_token` rows, honoured until they expire).
struct SQLiteRefreshTokens: Sendable {
    let rules: RefreshRules

    /// The token of a new session's first generation; the session row is the caller's insert.
    func first(sessionID: String, now: Int64) -> (claims: RefreshTokenCodec.Claims, token: String) {
        let claims = rules.first(sessionID: sessionID, now: now)
        return (claims, rules.codec.token(claims))
    }

    /// What a rotation in the writer's turn came to: the family advanced (its token is made by
    /// the caller, off the writer), or the rules' outcome.
    enum Rotated: Sendable {
        case advanced(RefreshTokenCodec.Claims)
        case decided(RefreshOutcome)
    }

    /// `reading` is the caller's (`codec.read`, off the writer, as on PostgreSQL).
    func rotate(
        _ db: Database, _ reading: RefreshTokenCodec.Reading, token: String, sessionID: String, userID: String, appID: String, now: Int64
    ) throws -> Rotated {
        if case .current(let claims) = reading, let next = try advance(db, claims, sessionID: sessionID, userID: userID, appID: appID, now: now) {
            return .advanced(next)
        }
        if try SQLiteBanStore.ban(db, of: userID, appID: appID, at: now) != nil { return .decided(RefreshRules.suspended) }
        switch reading {
        case .invalid:
            return .decided(.rejected("unknown refresh token"))
        case .legacy:
            return .decided(try rotateLegacy(db, token: token, sessionID: sessionID, userID: userID, now: now))
        case .current(let claims):
            let family = try family(db, sessionID: sessionID)
            return .decided(
                try apply(db, rules.rotation(of: claims, sessionID: sessionID, userID: userID, family: family, now: now), sessionID, family, now))
        }
    }

    /// The common case in one statement instead of three (PostgreSQL's too): `RefreshRules.rotation`'s
    /// `.advance` — the family's current token, unexpired, of a live session of the caller's, who is
    /// not banned — checked by the UPDATE itself. Nil when it does not hold; the full rules answer.
    private func advance(
        _ db: Database, _ claims: RefreshTokenCodec.Claims, sessionID: String, userID: String, appID: String, now: Int64
    ) throws -> RefreshTokenCodec.Claims? {
        guard claims.sessionID == sessionID, claims.expiresAt > now else { return nil }
        let next = rules.next(sessionID: sessionID, after: claims.generation, now: now)
        try db.cachedStatement(
            sql: """
                UPDATE session SET refresh_generation = ?, refresh_expires_at = ?, refresh_rotated_at = ?
                WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND refresh_generation = ?
                AND NOT EXISTS (SELECT 1 FROM ban WHERE user_id = ? AND app_id = ? AND (banned_until IS NULL OR banned_until > ?))
                """
        ).execute(arguments: [next.generation, next.expiresAt, now, sessionID, userID, claims.generation, userID, appID, now])
        return db.changesCount == 1 ? next : nil
    }

    /// The live session `token` proves without exchanging it.
    func session(_ db: Database, token: String, appID: String, now: Int64) throws -> (sessionID: String, userID: String)? {
        switch rules.codec.read(token) {
        case .invalid:
            return nil
        case .legacy:
            guard let legacy = try RefreshTokenRecord.fetchOne(db, key: RefreshTokenCodec.legacyHash(token)),
                legacy.rotatedAt == nil, legacy.expiresAt > now,
                let family = try family(db, sessionID: legacy.sessionID), family.revokedAt == nil, family.appID == appID
            else { return nil }
            return (legacy.sessionID, family.userID)
        case .current(let claims):
            guard let family = try family(db, sessionID: claims.sessionID), rules.proves(claims, appID: appID, family: family, now: now) else {
                return nil
            }
            return (claims.sessionID, family.userID)
        }
    }

    func check(_ db: Database, token: String, sessionID: String, userID: String, now: Int64) throws -> RefreshOutcome {
        guard let family = try family(db, sessionID: sessionID), family.userID == userID else { return .rejected("unknown refresh token") }
        switch rules.codec.read(token) {
        case .invalid:
            return .rejected("unknown refresh token")
        case .legacy:
            guard let legacy = try RefreshTokenRecord.fetchOne(db, key: RefreshTokenCodec.legacyHash(token)), legacy.sessionID == sessionID else {
                return .rejected("unknown refresh token")
            }
            return rules.check(token, expiresAt: legacy.expiresAt, replaced: legacy.rotatedAt != nil, family: family, now: now)
        case .current(let claims):
            guard claims.sessionID == sessionID else { return .rejected("unknown refresh token") }
            return rules.check(token, expiresAt: claims.expiresAt, replaced: claims.generation != family.generation, family: family, now: now)
        }
    }

    /// Its earlier tokens (legacy ones too) count as exchanged from now on.
    func rotateWithoutToken(_ db: Database, sessionID: String, userID: String, now: Int64) throws -> RefreshOutcome {
        let family = try family(db, sessionID: sessionID)
        let rotation = rules.rotationWithoutToken(userID: userID, family: family, now: now)
        if rotation == .advance, family?.generation == 0 {
            try db.cachedStatement(sql: "UPDATE refresh_token SET rotated_at = ? WHERE session_id = ? AND rotated_at IS NULL")
                .execute(arguments: [now, sessionID])
        }
        return try apply(db, rotation, sessionID, family, now)
    }

    static func revoke(_ db: Database, sessionID: String, reason: String, now: Int64) throws {
        try SessionRecord.filter(key: sessionID).filter(SessionRecord.Columns.revokedAt == nil)
            .updateAll(db, SessionRecord.Columns.revokedAt.set(to: now), SessionRecord.Columns.revokeReason.set(to: reason))
    }

    private func family(_ db: Database, sessionID: String) throws -> RefreshRules.Family? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT user_id, app_id, revoked_at, refresh_generation, refresh_expires_at, refresh_rotated_at FROM session WHERE id = ?
                    """), arguments: [sessionID]
        ).map { row in
            RefreshRules.Family(userID: row[0], appID: row[1], revokedAt: row[2], generation: row[3], expiresAt: row[4], rotatedAt: row[5])
        }
    }

    private func apply(
        _ db: Database, _ rotation: RefreshRules.Rotation, _ sessionID: String, _ family: RefreshRules.Family?, _ now: Int64
    ) throws -> RefreshOutcome {
        let (write, outcome) = rules.resolve(rotation, sessionID: sessionID, family: family, now: now)
        switch write {
        case .nothing: break
        case .revoke: try Self.revoke(db, sessionID: sessionID, reason: RefreshRules.reuseReason, now: now)
        case .advance(let next):
            try db.cachedStatement(sql: "UPDATE session SET refresh_generation = ?, refresh_expires_at = ?, refresh_rotated_at = ? WHERE id = ?")
                .execute(arguments: [next.generation, next.expiresAt, now, sessionID])
        }
        return outcome
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
            if !rules.withinGrace(rotatedAt: rotatedAt, now: now) { return try apply(db, .revoke, sessionID, family, now) }
            if family.generation > 0 { return try apply(db, .answerCurrent, sessionID, family, now) }
        } else {
            try db.cachedStatement(sql: "UPDATE refresh_token SET rotated_at = ? WHERE hash = ?").execute(arguments: [now, hash])
        }
        return try apply(db, .advance, sessionID, family, now)
    }
}
