import Contracts
import Foundation
import GRDB
import ServiceKit

/// Sign-up, logins, token refresh, logout and withdrawal: one transaction per operation.
struct AccountService: Sendable {
    let database: any DatabaseWriter
    let users: UserRepository
    let sessions: SessionStore
    let tokens: TokenIssuer
    let hasher: PasswordHasher
    let apps: AppRepository
    let verifier: AccessTokenVerifier

    func join(appID: String, _ request: JoinRequest) async throws -> AuthAnswer {
        let email = try AccountRules.email(request.email)
        try AccountRules.password(request.password)
        let nick = try AccountRules.nick(request.nick)
        let fields = try [request.phoneNum, request.birthDay, request.gender, request.info1, request.info2, request.info3, request.info4, request.info5]
            .map { try AccountRules.text($0, field: "profile field", max: 200) ?? "" }
        let deviceToken = try AccountRules.text(request.deviceToken, field: "deviceToken", max: 512)
        if try await users.emailTaken(email, appID: appID) { throw ServiceError(.conflict, "email already registered") }
        let hash = try await hasher.hash(request.password)
        let now = GlintDate.nowMilliseconds()
        var user = UserRecord(appID: appID, email: email, passwordHash: hash, nick: nick, now: now)
        (user.phoneNum, user.birthDay, user.gender) = (fields[0], fields[1], fields[2])
        (user.info1, user.info2, user.info3, user.info4, user.info5) = (fields[3], fields[4], fields[5], fields[6], fields[7])
        let opened = try await database.write { [user] db in
            do {
                try user.insert(db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw ServiceError(.conflict, "email already registered")
            }
            return try sessions.open(db, userID: user.id, appID: appID, deviceToken: deviceToken, now: now)
        }
        return try await answer(user, session: opened)
    }

    func login(appID: String, _ request: LoginRequest) async throws -> AuthAnswer {
        let deviceToken = try AccountRules.text(request.deviceToken, field: "deviceToken", max: 512)
        guard request.email.utf8.count <= 254, request.password.utf8.count <= 72,
              let user = try await users.find(email: request.email.trimmingCharacters(in: .whitespacesAndNewlines), appID: appID),
              let stored = user.passwordHash,
              try await hasher.verify(request.password, stored)
        else { throw ServiceError(.loginFailed, "check your email or password") }
        let now = GlintDate.nowMilliseconds()
        let opened = try await database.write { db in
            try sessions.open(db, userID: user.id, appID: appID, deviceToken: deviceToken, now: now)
        }
        return try await answer(user, session: opened)
    }

    /// Logs in (or signs up) the user linked to a verified provider identity.
    func socialLogin(appID: String, identity: SocialIdentity, deviceToken: String?) async throws -> AuthAnswer {
        let deviceToken = try AccountRules.text(deviceToken, field: "deviceToken", max: 512)
        let now = GlintDate.nowMilliseconds()
        let (user, opened) = try await database.write { db -> (UserRecord, (sessionID: String, refreshToken: String)) in
            let linked = try String.fetchOne(db, sql: "SELECT user_id FROM social_identity WHERE app_id = ? AND provider = ? AND subject = ?",
                                             arguments: [appID, identity.provider, identity.subject])
            var user: UserRecord
            if let linked, let existing = try UserRepository.find(db, id: linked, appID: appID) {
                user = existing
            } else {
                let email = identity.email.flatMap { try? AccountRules.email($0) } ?? ""
                let emailFree = email.isEmpty ? true : try UserRecord
                    .filter(UserRecord.Columns.appID == appID && UserRecord.Columns.emailKey == email.lowercased()).fetchCount(db) == 0
                let nick = identity.nick.flatMap { try? AccountRules.nick($0) } ?? "\(identity.provider)_\(ObjectID.generate().suffix(6))"
                // An email already used by a password account is not taken over: the social
                // account gets none rather than linking by an unverified claim.
                user = UserRecord(appID: appID, email: emailFree ? email : "", passwordHash: nil, nick: nick, now: now)
                try user.insert(db)
                try db.execute(sql: "INSERT INTO social_identity (app_id, provider, subject, user_id) VALUES (?, ?, ?, ?)",
                               arguments: [appID, identity.provider, identity.subject, user.id])
            }
            return (user, try sessions.open(db, userID: user.id, appID: appID, deviceToken: deviceToken, now: now))
        }
        return try await answer(user, session: opened)
    }

    /// `GET /v1/auth/refresh`: the (usually expired) access token names the session; the refresh
    /// token proves it, unless the app may refresh with the access token alone.
    func refresh(appID: String, accessToken: String?, refreshToken: String?) async throws -> TokenPair {
        guard let accessToken else { throw ServiceError(.tokenInvalid, "access token required") }
        let caller = try await verifier.verify(accessToken, allowExpired: true)
        guard caller.appID == appID else { throw ServiceError(.tokenInvalid, "access token belongs to another app") }
        let now = GlintDate.nowMilliseconds()
        let outcome: SessionStore.Refresh
        if let refreshToken, !refreshToken.isEmpty {
            guard refreshToken.utf8.count <= 256 else { throw ServiceError(.refreshInvalid, "unknown refresh token") }
            outcome = try await sessions.rotate(refreshToken: refreshToken, sessionID: caller.sessionID, userID: caller.userID, now: now)
        } else if try await apps.find(id: appID)?.refreshWithAccessTokenOnly == true {
            outcome = try await sessions.rotateWithoutToken(sessionID: caller.sessionID, userID: caller.userID, now: now)
        } else {
            throw ServiceError(.refreshInvalid, "refresh token required")
        }
        switch outcome {
        case .rejected(let reason):
            throw ServiceError(.refreshInvalid, reason)
        case .rotated(let newRefreshToken):
            let access = try await tokens.accessToken(userID: caller.userID, appID: appID, sessionID: caller.sessionID)
            return TokenPair(accessToken: access, refreshToken: newRefreshToken)
        }
    }

    func logout(_ user: AuthenticatedUser) async throws {
        try await sessions.revoke(sessionID: user.sessionID, reason: "logout", now: GlintDate.nowMilliseconds())
    }

    /// Deletes the account; its sessions, follows, blocks and identities go with it.
    func withdraw(_ caller: AuthenticatedUser) async throws -> WithdrawAnswer {
        try await database.write { db in
            guard let user = try UserRepository.find(db, id: caller.userID, appID: caller.appID) else {
                throw ServiceError(.forbidden, "user no longer exists")
            }
            try user.delete(db)
            return WithdrawAnswer(userID: user.id, email: user.email, nick: user.nick)
        }
    }

    private func answer(_ user: UserRecord, session: (sessionID: String, refreshToken: String)) async throws -> AuthAnswer {
        let access = try await tokens.accessToken(userID: user.id, appID: user.appID, sessionID: session.sessionID)
        return AuthAnswer(
            userID: user.id, email: user.email, nick: user.nick, profileImage: user.profileImage,
            accessToken: access, refreshToken: session.refreshToken
        )
    }
}

/// A user as a login provider vouches for it.
struct SocialIdentity: Sendable, Equatable {
    var provider: String
    var subject: String
    var email: String?
    var nick: String?
}
