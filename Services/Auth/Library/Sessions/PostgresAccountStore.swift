import Contracts
import Foundation
import Outbox
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `AccountStore` on PostgreSQL: one transaction per operation; a refresh locks its session row
/// (`FOR UPDATE`), so concurrent refreshes of one family on any replica take turns.
struct PostgresAccountStore: AccountStore {
    let pool: PostgresPool
    let rules: RefreshRules

    private var logger: Logger { pool.logger }

    func createUser(_ user: UserRecord, session: NewSession, grant: PaymentGrantEvent?) async throws -> String {
        try await pool.transaction { connection in
            do {
                try await connection.query(try PostgresColumns(user).insert(into: "app_user"), logger: logger)
            } catch let error as PSQLError where error.isUniqueViolation {
                throw StoreError.conflict("email already registered")
            }
            if let grant {
                try await PostgresOutboxStore.enqueue(connection, topic: PaymentGrantEvent.topic, key: grant.impUID, payload: grant, logger: logger)
            }
            return try await open(connection, session, userID: user.id)
        }
    }

    func openSession(_ session: NewSession, userID: String) async throws -> String {
        try await pool.transaction { connection in try await open(connection, session, userID: userID) }
    }

    func socialLogin(
        _ identity: SocialIdentity, email: String, session: NewSession, newUser: @escaping @Sendable (_ emailFree: Bool) -> UserRecord
    ) async throws -> (user: UserRecord, refreshToken: String, created: Bool) {
        let appID = session.appID
        return try await pool.transaction { connection in
            let linked = try await connection.value(
                String.self,
                """
                SELECT user_id FROM social_identity WHERE app_id = \(appID) AND provider = \(identity.provider) AND subject = \(identity.subject)
                """, logger: logger)
            if let linked, let existing = try await PostgresUserStore.user(connection, id: linked, appID: appID, logger: logger) {
                return (existing, try await open(connection, session, userID: existing.id), false)
            }
            let emailFree =
                email.isEmpty
                ? true
                : try await connection.count(
                    "SELECT 1 FROM app_user WHERE app_id = \(appID) AND email_key = \(email.lowercased()) LIMIT 1", logger: logger) == 0
            let user = newUser(emailFree)
            try await connection.query(try PostgresColumns(user).insert(into: "app_user"), logger: logger)
            try await connection.query(
                """
                INSERT INTO social_identity (app_id, provider, subject, user_id) VALUES (\(appID), \(identity.provider), \(identity.subject), \(user.id))
                """, logger: logger)
            return (user, try await open(connection, session, userID: user.id), true)
        }
    }

    func deleteUser(id: String, appID: String) async throws -> UserRecord? {
        try await pool.transaction { connection in
            try await connection.record(UserRecord.self, "DELETE FROM app_user WHERE id = \(id) AND app_id = \(appID) RETURNING *", logger: logger)
        }
    }

    func revokeUser(id: String, appID: String) async throws -> Bool {
        try await pool.transaction { connection in
            guard try await PostgresUserStore.user(connection, id: id, appID: appID, logger: logger, forUpdate: true) != nil else { return false }
            if let sealed = try await connection.value(
                Data.self, "SELECT sealed_refresh_token FROM apple_grant WHERE user_id = \(id)", logger: logger)
            {
                let revocation = AppleRevocation(appID: appID, userID: id, sealedRefreshToken: sealed)
                try await PostgresOutboxStore.enqueue(connection, topic: AppleRevocation.topic, key: id, payload: revocation, logger: logger)
            }
            try await PostgresOutboxStore.enqueue(
                connection, topic: AccountRevokedEvent.topic, key: id, payload: AccountRevokedEvent(appID: appID, userID: id), logger: logger)
            try await connection.query("DELETE FROM app_user WHERE id = \(id)", logger: logger)
            return true
        }
    }

    /// Opens a session with its first refresh token (and its device token for push-svc), inside
    /// the caller's transaction.
    private func open(_ connection: PostgresConnection, _ new: NewSession, userID: String) async throws -> String {
        let first = rules.first(sessionID: new.id, now: new.createdAt)
        let session = SessionRecord(
            id: new.id, appID: new.appID, userID: userID, deviceToken: new.deviceToken, createdAt: new.createdAt,
            refreshGeneration: first.generation, refreshExpiresAt: first.expiresAt
        )
        try await connection.query(try PostgresColumns(session).insert(into: "session"), logger: logger)
        if let token = new.deviceToken {
            let event = DeviceTokenEvent(appID: new.appID, userID: userID, sessionID: new.id, deviceToken: token)
            try await PostgresOutboxStore.enqueue(connection, topic: DeviceTokenEvent.topic, key: new.id, payload: event, logger: logger)
        }
        return rules.codec.token(first)
    }

    func rotate(refreshToken: String, sessionID: String, userID: String, appID: String, at now: Int64) async throws -> RefreshOutcome {
        guard case .current(let claims) = rules.codec.read(refreshToken) else { return .rejected("unknown refresh token") }
        // The common case in one statement instead of four round trips: `RefreshRules.rotation`'s
        // `.advance` (the family's current token, unexpired, of a live session of the caller's, who
        // is not banned), checked by the UPDATE itself. A concurrent refresh that got there first
        // leaves it no row, and the full rules below answer (ban, grace, reuse, …).
        if claims.sessionID == sessionID, claims.expiresAt > now {
            let next = rules.next(sessionID: sessionID, after: claims.generation, now: now)
            let advanced = try await pool.read { connection in
                try await connection.count(
                    """
                    UPDATE session SET refresh_generation = \(next.generation), refresh_expires_at = \(next.expiresAt), refresh_rotated_at = \(now)
                    WHERE id = \(sessionID) AND user_id = \(userID) AND revoked_at IS NULL AND refresh_generation = \(claims.generation)
                    AND NOT EXISTS (
                        SELECT 1 FROM ban WHERE user_id = \(userID) AND app_id = \(appID) AND (banned_until IS NULL OR banned_until > \(now)))
                    RETURNING 1
                    """, logger: logger)
            }
            if advanced == 1 { return .rotated(refreshToken: rules.codec.token(next)) }
        }
        return try await pool.transaction { connection in
            if try await PostgresBanStore.ban(connection, of: userID, appID: appID, at: now, logger: logger) != nil { return RefreshRules.suspended }
            let family = try await family(connection, sessionID: sessionID, forUpdate: true)
            return try await apply(
                connection, rules.rotation(of: claims, sessionID: sessionID, userID: userID, family: family, now: now), sessionID, family, now)
        }
    }

    func session(refreshToken: String, appID: String, at now: Int64) async throws -> (sessionID: String, userID: String)? {
        guard case .current(let claims) = rules.codec.read(refreshToken) else { return nil }
        return try await pool.read { connection in
            guard let family = try await family(connection, sessionID: claims.sessionID), rules.proves(claims, appID: appID, family: family, now: now)
            else {
                return nil
            }
            return (claims.sessionID, family.userID)
        }
    }

    func rotateWithoutToken(sessionID: String, userID: String, at now: Int64) async throws -> RefreshOutcome {
        try await pool.transaction { connection in
            let family = try await family(connection, sessionID: sessionID, forUpdate: true)
            return try await apply(connection, rules.rotationWithoutToken(userID: userID, family: family, now: now), sessionID, family, now)
        }
    }

    func checkWithoutRotating(refreshToken: String, sessionID: String, userID: String, at now: Int64) async throws -> RefreshOutcome {
        guard case .current(let claims) = rules.codec.read(refreshToken), claims.sessionID == sessionID else {
            return .rejected("unknown refresh token")
        }
        return try await pool.read { connection in
            guard let family = try await family(connection, sessionID: sessionID), family.userID == userID else {
                return .rejected("unknown refresh token")
            }
            return rules.check(refreshToken, expiresAt: claims.expiresAt, replaced: claims.generation != family.generation, family: family, now: now)
        }
    }

    func revoke(sessionID: String, reason: String, at now: Int64) async throws {
        try await pool.transaction { connection in try await revoke(connection, sessionID: sessionID, reason: reason, now: now) }
    }

    func state(sessionID: String, userID: String) async throws -> SessionState {
        try await pool.read { connection in
            let rows = try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM app_user WHERE id = \(userID)),
                       EXISTS (SELECT 1 FROM session WHERE id = \(sessionID) AND user_id = \(userID) AND revoked_at IS NULL)
                """, logger: logger)
            for try await (userExists, sessionLive) in rows.decode((Bool, Bool).self) {
                return userExists ? (sessionLive ? .active : .revoked) : .userGone
            }
            return .userGone
        }
    }

    private func revoke(_ connection: PostgresConnection, sessionID: String, reason: String, now: Int64) async throws {
        try await connection.query(
            "UPDATE session SET revoked_at = \(now), revoke_reason = \(reason) WHERE id = \(sessionID) AND revoked_at IS NULL", logger: logger
        )
    }

    private func family(_ connection: PostgresConnection, sessionID: String, forUpdate: Bool = false) async throws -> RefreshRules.Family? {
        let rows = try await connection.query(
            """
            SELECT user_id, app_id, revoked_at, refresh_generation, refresh_expires_at, refresh_rotated_at FROM session WHERE id = \(sessionID)
            \(unescaped: forUpdate ? "FOR UPDATE" : "")
            """, logger: logger)
        for try await (userID, appID, revokedAt, generation, expiresAt, rotatedAt) in rows.decode((String, String, Int64?, Int64, Int64, Int64?).self)
        {
            return RefreshRules.Family(
                userID: userID, appID: appID, revokedAt: revokedAt, generation: generation, expiresAt: expiresAt, rotatedAt: rotatedAt)
        }
        return nil
    }

    private func apply(
        _ connection: PostgresConnection, _ rotation: RefreshRules.Rotation, _ sessionID: String, _ family: RefreshRules.Family?, _ now: Int64
    ) async throws -> RefreshOutcome {
        let (write, outcome) = rules.resolve(rotation, sessionID: sessionID, family: family, now: now)
        switch write {
        case .nothing: break
        case .revoke: try await revoke(connection, sessionID: sessionID, reason: RefreshRules.reuseReason, now: now)
        case .advance(let next):
            try await connection.query(
                """
                UPDATE session SET refresh_generation = \(next.generation), refresh_expires_at = \(next.expiresAt), refresh_rotated_at = \(now)
                WHERE id = \(sessionID)
                """, logger: logger)
        }
        return outcome
    }
}
