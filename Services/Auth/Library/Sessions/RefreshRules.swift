/// The refresh-token rules of a session family, whatever engine keeps it: what a presented token
/// does, decided from the family's row alone (the session row holds the current generation,
/// `RefreshTokenCodec`). Each store reads the row, asks, and writes what the answer says.
struct RefreshRules: Sendable {
    /// What the rules need of a session.
    struct Family: Sendable {
        var userID, appID: String
        var revokedAt: Int64?
        var generation, expiresAt: Int64
        var rotatedAt: Int64?
    }

    enum Rotation: Equatable, Sendable {
        /// Issue the family's next generation.
        case advance
        /// The token just exchanged, again within the grace window (two refreshes of one
        /// device at once): the family's current token.
        case answerCurrent
        /// A genuine token of an earlier generation: a stolen copy or a replay; the family dies.
        case revoke
        case reject(String)
    }

    static let reused = RefreshOutcome.rejected("refresh token reused; please log in again")
    /// A rotation asked for a user banned in the app: refused before the family is read, so the
    /// token stays as it was (the store's ban check in the rotation's own transaction, which
    /// spares the refresh a separate read; `BanService.check` answers the same).
    static let suspended = RefreshOutcome.rejected(BanService.suspended)
    static let reuseReason = "refresh token reused"

    let codec: RefreshTokenCodec
    let lifetimeMS: Int64
    let reuseGraceMS: Int64

    /// The service's rules: its configured lifetimes, the MAC keyed off its sealing key.
    init(configuration: AuthConfiguration, sealing: SealingKey) {
        self.init(
            codec: RefreshTokenCodec(key: sealing.subkey("refresh-token-mac")),
            lifetimeMS: Int64(configuration.refreshTokenLifetime * 1000), reuseGraceMS: Int64(configuration.refreshReuseGrace * 1000)
        )
    }

    init(codec: RefreshTokenCodec, lifetimeMS: Int64, reuseGraceMS: Int64) {
        (self.codec, self.lifetimeMS, self.reuseGraceMS) = (codec, lifetimeMS, reuseGraceMS)
    }

    func rotation(of claims: RefreshTokenCodec.Claims, sessionID: String, userID: String, family: Family?, now: Int64) -> Rotation {
        guard claims.sessionID == sessionID, let family, family.userID == userID else { return .reject("unknown refresh token") }
        guard family.revokedAt == nil else { return .reject("session ended") }
        guard claims.expiresAt > now else { return .reject("refresh token expired") }
        if claims.generation == family.generation { return .advance }
        if claims.generation == family.generation - 1, let rotatedAt = family.rotatedAt, withinGrace(rotatedAt: rotatedAt, now: now) {
            return .answerCurrent
        }
        return claims.generation < family.generation ? .revoke : .reject("unknown refresh token")
    }

    /// Whether a token exchanged at `rotatedAt` still answers the family's current one: less than
    /// the grace after. A zero grace admits no reuse however soon it comes — a second refresh in
    /// the same millisecond as the first included (which `<=` let through as within a grace of 0).
    func withinGrace(rotatedAt: Int64, now: Int64) -> Bool {
        now - rotatedAt < reuseGraceMS
    }

    /// Whether the token proves its live session of `appID` without being exchanged.
    func proves(_ claims: RefreshTokenCodec.Claims, appID: String, family: Family?, now: Int64) -> Bool {
        guard let family else { return false }
        return claims.expiresAt > now && family.revokedAt == nil && family.appID == appID && family.generation == claims.generation
    }

    /// A token that stays the family's (workspace apps never rotate): answered unchanged.
    func check(_ token: String, expiresAt: Int64, replaced: Bool, family: Family, now: Int64) -> RefreshOutcome {
        guard family.revokedAt == nil else { return .rejected("session ended") }
        guard expiresAt > now else { return .rejected("refresh token expired") }
        guard !replaced else { return .rejected("refresh token replaced") }
        return .rotated(refreshToken: token)
    }

    /// For apps that refresh with the access token alone: a live session advances.
    func rotationWithoutToken(userID: String, family: Family?, now: Int64) -> Rotation {
        guard let family, family.userID == userID, family.revokedAt == nil else { return .reject("session ended") }
        return family.expiresAt > now ? .advance : .reject("refresh token expired")
    }

    /// What a store writes for a rotation, before answering `outcome`.
    enum Write: Equatable, Sendable {
        case nothing
        case revoke
        case advance(RefreshTokenCodec.Claims)
    }

    func resolve(_ rotation: Rotation, sessionID: String, family: Family?, now: Int64) -> (write: Write, outcome: RefreshOutcome) {
        switch (rotation, family) {
        case (.reject(let reason), _): return (.nothing, .rejected(reason))
        case (.revoke, _): return (.revoke, Self.reused)
        case (.answerCurrent, let family?): return (.nothing, .rotated(refreshToken: current(sessionID: sessionID, family)))
        case (.advance, let family?):
            let next = next(sessionID: sessionID, after: family.generation, now: now)
            return (.advance(next), .rotated(refreshToken: codec.token(next)))
        case (.answerCurrent, nil), (.advance, nil): return (.nothing, .rejected("unknown refresh token"))
        }
    }

    func first(sessionID: String, now: Int64) -> RefreshTokenCodec.Claims {
        RefreshTokenCodec.Claims(sessionID: sessionID, generation: 1, expiresAt: now + lifetimeMS)
    }

    /// The generation after `generation`, issued `now`.
    func next(sessionID: String, after generation: Int64, now: Int64) -> RefreshTokenCodec.Claims {
        RefreshTokenCodec.Claims(sessionID: sessionID, generation: generation + 1, expiresAt: now + lifetimeMS)
    }

    private func current(sessionID: String, _ family: Family) -> String {
        codec.token(RefreshTokenCodec.Claims(sessionID: sessionID, generation: family.generation, expiresAt: family.expiresAt))
    }
}
