import Contracts

/// Accounts and their sessions: sign-up, logins, refresh-token rotation, logout, withdrawal.
/// Every operation that opens a session answers the session's first refresh token, and a
/// session opened with a device token leaves it for push-svc (`DeviceTokenEvent`, outbox) in the
/// same transaction.
protocol AccountStore: Sendable {
    /// The user and its first session (`StoreError.conflict` when the email is taken), and the
    /// coins it starts with (`grant`, for market-svc through the outbox) in the same transaction.
    func createUser(_ user: UserRecord, session: NewSession, grant: PaymentGrantEvent?) async throws -> String
    func openSession(_ session: NewSession, userID: String) async throws -> String
    /// The user linked to the provider identity, or on a first login the one `newUser` makes
    /// (told whether `email`, the identity's checked email, is free in the app) and links;
    /// either way with a new session.
    func socialLogin(
        _ identity: SocialIdentity, email: String, session: NewSession, newUser: @escaping @Sendable (_ emailFree: Bool) -> UserRecord
    ) async throws -> (user: UserRecord, refreshToken: String, created: Bool)
    /// Deletes the account (its sessions, follows, blocks and identities go with it).
    func deleteUser(id: String, appID: String) async throws -> UserRecord?
    /// Deletes the account at once (API.md §9 revoke) and leaves in the outbox, in the same
    /// transaction, the removal of its content (market-svc) and, when it signed in with Apple by
    /// code, the revocation of its Apple grant. False when there was no such user.
    func revokeUser(id: String, appID: String) async throws -> Bool

    /// Exchanges a refresh token of the session for a new one. A token used again after the
    /// grace window is a stolen copy or a replay: the whole session dies. A user banned in
    /// `appID` is refused (`RefreshRules.suspended`) in the same transaction, the token untouched.
    func rotate(refreshToken: String, sessionID: String, userID: String, appID: String, at time: Int64) async throws -> RefreshOutcome
    /// The live session a refresh token of `appID` proves (not expired, not rotated away, not
    /// ended), for clients that send the refresh token alone (API.md §9).
    func session(refreshToken: String, appID: String, at time: Int64) async throws -> (sessionID: String, userID: String)?
    /// For apps with `refresh_with_access_token_only`: a live session gets a new refresh token;
    /// its earlier ones count as rotated from now on.
    func rotateWithoutToken(sessionID: String, userID: String, at time: Int64) async throws -> RefreshOutcome
    /// For apps whose clients keep their first refresh token: the token proves the session (not
    /// expired, not rotated away, session live) and stays valid; answers it unchanged.
    func checkWithoutRotating(refreshToken: String, sessionID: String, userID: String, at time: Int64) async throws -> RefreshOutcome
    func revoke(sessionID: String, reason: String, at time: Int64) async throws
    func state(sessionID: String, userID: String) async throws -> SessionState
}

/// A session about to be opened.
struct NewSession: Sendable {
    var id: String
    var appID: String
    /// As the client sent it (`""` clears the device's token at push-svc).
    var deviceToken: String?
    var createdAt: Int64
}

enum RefreshOutcome: Equatable, Sendable {
    case rotated(refreshToken: String)
    case rejected(String)
}

enum SessionState: Equatable, Sendable {
    case active, revoked, userGone
}
