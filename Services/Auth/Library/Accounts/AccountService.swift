import Contracts
import Foundation
import Outbox
import Passwords
import ServiceKit

/// Sign-up, logins, token refresh, logout and withdrawal: one store transaction per operation.
struct AccountService: Sendable {
    let accounts: any AccountStore
    let users: any UserStore
    let tokens: TokenIssuer
    let hasher: PasswordHasher
    let apps: AppService
    let verifier: AccessTokenVerifier
    /// The outbox's relay: woken after a write that left it something (a device token, signup
    /// coins), and asked to deliver ahead what the user's next request must see.
    let relay: OutboxRelay
    let usersChanged: UsersChangedClient
    /// Operators' bans: a banned user cannot sign in or refresh.
    let bans: BanService

    /// A new account and its first session; `signupCoins` (workspace apps) go to its wallet.
    func join(appID: String, _ request: JoinRequest, signupCoins: Int = 0) async throws -> SignedIn {
        let email = try AccountRules.email(request.email)
        try AccountRules.password(request.password)
        let nick = try AccountRules.nick(request.nick)
        let fields = try [
            request.phoneNum, request.birthDay, request.gender, request.info1, request.info2, request.info3, request.info4, request.info5,
        ]
        .map { try AccountRules.text($0, field: "profile field", max: 200) ?? "" }
        let deviceToken = try AccountRules.deviceToken(request.deviceToken)
        if try await users.user(email: email, appID: appID) != nil { throw ServiceError(.conflict, "email already registered") }
        let hash = try await hasher.hash(request.password)
        let now = GlintDate.nowMilliseconds()
        var user = UserRecord(appID: appID, email: email, passwordHash: hash, nick: nick, now: now)
        (user.phoneNum, user.birthDay, user.gender) = (fields[0], fields[1], fields[2])
        (user.info1, user.info2, user.info3, user.info4, user.info5) = (fields[3], fields[4], fields[5], fields[6], fields[7])
        let session = NewSession(id: ObjectID.generate(), appID: appID, deviceToken: deviceToken, createdAt: now)
        // Keyed by the user: the outbox may deliver twice, the wallet grants once.
        let grant =
            signupCoins > 0
            ? PaymentGrantEvent(kind: .coins, impUID: "signup_" + user.id, appID: appID, userID: user.id, merchantUID: "signup", coins: signupCoins)
            : nil
        let refreshToken = try await accounts.createUser(user, session: session, grant: grant)
        if let grant {
            // The app shows the balance right after signing up.
            await relay.deliverAhead(topic: PaymentGrantEvent.topic, key: grant.impUID, payload: grant)
            relay.nudge()
        }
        return try await signedIn(user, provider: "email", session: session, refreshToken: refreshToken)
    }

    func login(appID: String, _ request: LoginRequest) async throws -> SignedIn {
        let deviceToken = try AccountRules.deviceToken(request.deviceToken)
        guard request.email.utf8.count <= 254, request.password.utf8.count <= 72,
            let user = try await users.user(email: request.email.trimmingCharacters(in: .whitespacesAndNewlines), appID: appID),
            let stored = user.passwordHash,
            try await hasher.verify(request.password, stored)
        else { throw ServiceError(.loginFailed, "check your email or password") }
        try await bans.check(userID: user.id, appID: appID)
        let session = NewSession(id: ObjectID.generate(), appID: appID, deviceToken: deviceToken, createdAt: GlintDate.nowMilliseconds())
        return try await signedIn(user, provider: "email", session: session, refreshToken: try await accounts.openSession(session, userID: user.id))
    }

    /// Logs in (or signs up) the user linked to a verified provider identity. An email already
    /// used by another account is not taken over: the social account gets none rather than
    /// linking by an unverified claim.
    func socialLogin(appID: String, identity: SocialIdentity, deviceToken: String?) async throws -> SignedIn {
        let deviceToken = try AccountRules.deviceToken(deviceToken)
        let now = GlintDate.nowMilliseconds()
        let email = identity.email.flatMap { try? AccountRules.email($0) } ?? ""
        let nick = identity.nick.flatMap { try? AccountRules.nick($0) } ?? "\(identity.provider)_\(ObjectID.generate().suffix(6))"
        let session = NewSession(id: ObjectID.generate(), appID: appID, deviceToken: deviceToken, createdAt: now)
        let (user, refreshToken, created) = try await accounts.socialLogin(identity, email: email, session: session) { emailFree in
            UserRecord(appID: appID, email: emailFree ? email : "", passwordHash: nil, nick: nick, now: now)
        }
        // Checked after the identity is resolved (the user may be new); the session opened is never handed out.
        try await bans.check(userID: user.id, appID: appID)
        var signedIn = try await signedIn(user, provider: identity.provider, session: session, refreshToken: refreshToken)
        signedIn.isNewUser = created
        return signedIn
    }

    /// API.md §9 `POST /auth/renew-token`: the refresh token alone proves the session and gets a
    /// new access token; it is not rotated (the client keeps it).
    func renew(appID: String, refreshToken: String?) async throws -> String {
        let session = try await session(appID: appID, refreshToken: refreshToken)
        try await bans.check(userID: session.userID, appID: appID, refreshing: true)
        return try tokens.accessToken(userID: session.userID, appID: appID, sessionID: session.sessionID)
    }

    /// `POST /auth/validate-token`: nil while the access token is good; otherwise, when the
    /// refresh token is, a rotated pair.
    func validate(appID: String, accessToken: String?, refreshToken: String?) async throws -> TokenPair? {
        if let accessToken, let caller = try? await verifier.verify(accessToken), caller.appID == appID,
            try await accounts.state(sessionID: caller.sessionID, userID: caller.userID) == .active
        {
            return nil
        }
        let session = try await session(appID: appID, refreshToken: refreshToken)
        // The rotation refuses a banned user itself (`RefreshRules.suspended`).
        switch try await accounts.rotate(
            refreshToken: refreshToken ?? "", sessionID: session.sessionID, userID: session.userID, appID: appID, at: GlintDate.nowMilliseconds())
        {
        case .rejected(let reason):
            throw ServiceError(.refreshInvalid, reason)
        case .rotated(let newRefreshToken):
            return TokenPair(
                accessToken: try tokens.accessToken(userID: session.userID, appID: appID, sessionID: session.sessionID),
                refreshToken: newRefreshToken)
        }
    }

    private func session(appID: String, refreshToken: String?) async throws -> (sessionID: String, userID: String) {
        guard let refreshToken, (1...256).contains(refreshToken.utf8.count),
            let session = try await accounts.session(refreshToken: refreshToken, appID: appID, at: GlintDate.nowMilliseconds())
        else { throw ServiceError(.refreshInvalid, "refresh token invalid or expired") }
        return session
    }

    /// `GET /v1/auth/refresh`: the (usually expired) access token names the session; the refresh
    /// token proves it, unless the app may refresh with the access token alone. With `rotate`
    /// false (workspace apps, whose clients keep their first refresh token) it is checked and
    /// answered unchanged.
    func refresh(appID: String, accessToken: String?, refreshToken: String?, rotate: Bool = true) async throws -> TokenPair {
        guard let accessToken else { throw ServiceError(.tokenInvalid, "access token required") }
        let caller: AuthenticatedUser
        do {
            caller = try await verifier.verify(accessToken, allowExpired: true)
        } catch  where error.code == .banned {
            // A refresh that cannot succeed is the end of the session in every dialect (slp: E06).
            throw ServiceError(.refreshInvalid, error.message)
        }
        guard caller.appID == appID else { throw ServiceError(.tokenInvalid, "access token belongs to another app") }
        let now = GlintDate.nowMilliseconds()
        let outcome: RefreshOutcome
        if let refreshToken, !refreshToken.isEmpty {
            guard refreshToken.utf8.count <= 256 else { throw ServiceError(.refreshInvalid, "unknown refresh token") }
            if rotate {
                // The busiest write of the service: the rotation checks the ban in its own transaction.
                outcome = try await accounts.rotate(
                    refreshToken: refreshToken, sessionID: caller.sessionID, userID: caller.userID, appID: appID, at: now)
            } else {
                try await bans.check(userID: caller.userID, appID: appID, refreshing: true)
                outcome = try await accounts.checkWithoutRotating(
                    refreshToken: refreshToken, sessionID: caller.sessionID, userID: caller.userID, at: now)
            }
        } else if try await apps.find(id: appID)?.refreshWithAccessTokenOnly == true {
            try await bans.check(userID: caller.userID, appID: appID, refreshing: true)
            outcome = try await accounts.rotateWithoutToken(sessionID: caller.sessionID, userID: caller.userID, at: now)
        } else {
            throw ServiceError(.refreshInvalid, "refresh token required")
        }
        switch outcome {
        case .rejected(let reason):
            throw ServiceError(.refreshInvalid, reason)
        case .rotated(let newRefreshToken):
            let access = try tokens.accessToken(userID: caller.userID, appID: appID, sessionID: caller.sessionID)
            return TokenPair(accessToken: access, refreshToken: newRefreshToken)
        }
    }

    func logout(_ user: AuthenticatedUser) async throws {
        try await accounts.revoke(sessionID: user.sessionID, reason: "logout", at: GlintDate.nowMilliseconds())
    }

    /// Deletes the account; its sessions, follows, blocks and identities go with it.
    func withdraw(_ caller: AuthenticatedUser) async throws -> WithdrawAnswer {
        guard let user = try await accounts.deleteUser(id: caller.userID, appID: caller.appID) else {
            throw ServiceError(.forbidden, "user no longer exists")
        }
        await usersChanged.changed(caller.userID, caller.appID, nil)
        return WithdrawAnswer(userID: user.id, email: user.email, nick: user.nick)
    }

    /// API.md §9 revoke: the account goes at once, and its content before the answer (market-svc
    /// is asked ahead of the outbox, which finishes it if that fails); its Apple grant follows
    /// through the outbox.
    func revoke(_ caller: AuthenticatedUser) async throws {
        guard try await accounts.revokeUser(id: caller.userID, appID: caller.appID) else { throw ServiceError(.forbidden, "user no longer exists") }
        await relay.deliverAhead(
            topic: AccountRevokedEvent.topic, key: caller.userID, payload: AccountRevokedEvent(appID: caller.appID, userID: caller.userID))
        await usersChanged.changed(caller.userID, caller.appID, nil)
        relay.nudge()
    }

    /// A session just opened (which has left its device token for push-svc), with its tokens.
    private func signedIn(_ user: UserRecord, provider: String, session: NewSession, refreshToken: String) async throws -> SignedIn {
        if session.deviceToken != nil { relay.nudge() }
        let access = try tokens.accessToken(userID: user.id, appID: user.appID, sessionID: session.id)
        return SignedIn(user: user, provider: provider, accessToken: access, refreshToken: refreshToken)
    }
}

/// A user signed in, with the session's tokens: rendered in the app's family of shapes.
struct SignedIn: Sendable {
    var user: UserRecord
    /// `email`, `apple` or `kakao`.
    var provider: String
    var accessToken: String
    var refreshToken: String
    /// A social login that made the account (API.md §9's `isNewUser`).
    var isNewUser = false
}

/// A user as a login provider vouches for it.
struct SocialIdentity: Sendable, Equatable {
    var provider: String
    var subject: String
    var email: String?
    var nick: String?
}
