import Contracts
import Foundation
import GRDB
import ServiceKit

extension SessionRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "session"
    typealias Columns = CodingKeys
}

extension RefreshTokenRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "refresh_token"
    typealias Columns = CodingKeys
}

extension SessionRecord.CodingKeys: ColumnExpression {}
extension RefreshTokenRecord.CodingKeys: ColumnExpression {}

/// `AccountStore` on auth-svc's SQLite file: one transaction per operation.
struct SQLiteAccountStore: AccountStore {
    /// A refresh to rotate: the presented token and who the access token says presents it.
    private struct Rotation: Sendable {
        var refreshToken: String
        var sessionID: String
        var userID: String
        var now: Int64
    }

    let database: any DatabaseWriter
    let refreshLifetimeMS: Int64
    let reuseGraceMS: Int64
    /// Rotations are the busiest write of the service (every app renews every 15 minutes per
    /// user): concurrent ones share a transaction.
    private let rotations: WriteBatcher<Rotation, RefreshOutcome>

    init(database: any DatabaseWriter, refreshLifetimeMS: Int64, reuseGraceMS: Int64) {
        self.database = database
        self.refreshLifetimeMS = refreshLifetimeMS
        self.reuseGraceMS = reuseGraceMS
        rotations = WriteBatcher(database: database) { db, rotation in
            try Self.rotate(db, rotation, refreshLifetimeMS: refreshLifetimeMS, reuseGraceMS: reuseGraceMS)
        }
    }

    func createUser(_ user: UserRecord, session: NewSession, grant: PaymentGrantEvent?) async throws -> String {
        try await database.write { db in
            do {
                try user.insert(db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw StoreError.conflict("email already registered")
            }
            if let grant { try SQLiteOutboxStore.enqueue(db, topic: PaymentGrantEvent.topic, key: grant.impUID, payload: grant) }
            return try open(db, session, userID: user.id)
        }
    }

    func openSession(_ session: NewSession, userID: String) async throws -> String {
        try await database.write { db in try open(db, session, userID: userID) }
    }

    func socialLogin(
        _ identity: SocialIdentity, email: String, session: NewSession, newUser: @escaping @Sendable (_ emailFree: Bool) -> UserRecord
    ) async throws -> (user: UserRecord, refreshToken: String, created: Bool) {
        let appID = session.appID
        return try await database.write { db in
            let linked = try String.fetchOne(db, sql: "SELECT user_id FROM social_identity WHERE app_id = ? AND provider = ? AND subject = ?",
                                             arguments: [appID, identity.provider, identity.subject])
            if let linked, let existing = try SQLiteUserStore.user(db, id: linked, appID: appID) {
                return (existing, try open(db, session, userID: existing.id), false)
            }
            let emailFree = try email.isEmpty
                || Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE app_id = ? AND email_key = ?", arguments: [appID, email.lowercased()]) == 0
            let user = newUser(emailFree)
            try user.insert(db)
            try db.execute(sql: "INSERT INTO social_identity (app_id, provider, subject, user_id) VALUES (?, ?, ?, ?)",
                           arguments: [appID, identity.provider, identity.subject, user.id])
            return (user, try open(db, session, userID: user.id), true)
        }
    }

    func deleteUser(id: String, appID: String) async throws -> UserRecord? {
        try await database.write { db in
            guard let user = try SQLiteUserStore.user(db, id: id, appID: appID) else { return nil }
            try user.delete(db)
            return user
        }
    }

    func revokeUser(id: String, appID: String) async throws -> Bool {
        try await database.write { db in
            guard let user = try SQLiteUserStore.user(db, id: id, appID: appID) else { return false }
            if let sealed = try Data.fetchOne(db, sql: "SELECT sealed_refresh_token FROM apple_grant WHERE user_id = ?", arguments: [id]) {
                let revocation = AppleRevocation(appID: appID, userID: id, sealedRefreshToken: sealed)
                try SQLiteOutboxStore.enqueue(db, topic: AppleRevocation.topic, key: id, payload: revocation)
            }
            try SQLiteOutboxStore.enqueue(db, topic: AccountRevokedEvent.topic, key: id, payload: AccountRevokedEvent(appID: appID, userID: id))
            try user.delete(db)
            return true
        }
    }

    /// Opens a session with its first refresh token (and its device token for push-svc), inside
    /// the caller's transaction.
    private func open(_ db: Database, _ new: NewSession, userID: String) throws -> String {
        try SessionRecord(id: new.id, appID: new.appID, userID: userID, deviceToken: new.deviceToken, createdAt: new.createdAt).insert(db)
        if let token = new.deviceToken {
            let event = DeviceTokenEvent(appID: new.appID, userID: userID, sessionID: new.id, deviceToken: token)
            try SQLiteOutboxStore.enqueue(db, topic: DeviceTokenEvent.topic, key: new.id, payload: event)
        }
        return try Self.issueRefreshToken(db, sessionID: new.id, now: new.createdAt, lifetimeMS: refreshLifetimeMS)
    }

    func rotate(refreshToken: String, sessionID: String, userID: String, at now: Int64) async throws -> RefreshOutcome {
        try await rotations.submit(Rotation(refreshToken: refreshToken, sessionID: sessionID, userID: userID, now: now))
    }

    /// One rotation inside a batch's transaction: the token and its session in one cached
    /// statement, read by position (decoding both records by name cost more than the lookup).
    private static func rotate(_ db: Database, _ rotation: Rotation, refreshLifetimeMS: Int64, reuseGraceMS: Int64) throws -> RefreshOutcome {
        let (sessionID, now, hash) = (rotation.sessionID, rotation.now, RefreshTokenValue.hash(rotation.refreshToken))
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT refresh_token.session_id, refresh_token.expires_at, refresh_token.rotated_at, session.user_id, session.revoked_at
                FROM refresh_token JOIN session ON session.id = refresh_token.session_id WHERE refresh_token.hash = ?
                """), arguments: [hash]),
              row[0] as String == sessionID, row[3] as String == rotation.userID
        else { return .rejected("unknown refresh token") }
        let (expiresAt, rotatedAt, revokedAt): (Int64, Int64?, Int64?) = (row[1], row[2], row[4])
        guard revokedAt == nil else { return .rejected("session ended") }
        guard expiresAt > now else { return .rejected("refresh token expired") }
        if let rotatedAt, now - rotatedAt > reuseGraceMS {
            try revoke(db, sessionID: sessionID, reason: "refresh token reused", now: now)
            return .rejected("refresh token reused; please log in again")
        }
        if rotatedAt == nil {
            try db.cachedStatement(sql: "UPDATE refresh_token SET rotated_at = ? WHERE hash = ?").execute(arguments: [now, hash])
        }
        return .rotated(refreshToken: try issueRefreshToken(db, sessionID: sessionID, now: now, lifetimeMS: refreshLifetimeMS))
    }

    func rotateWithoutToken(sessionID: String, userID: String, at now: Int64) async throws -> RefreshOutcome {
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
            return .rotated(refreshToken: try Self.issueRefreshToken(db, sessionID: sessionID, now: now, lifetimeMS: refreshLifetimeMS))
        }
    }

    func session(refreshToken: String, appID: String, at now: Int64) async throws -> (sessionID: String, userID: String)? {
        try await database.read { db in
            guard let token = try RefreshTokenRecord.fetchOne(db, key: RefreshTokenValue.hash(refreshToken)),
                  token.rotatedAt == nil, token.expiresAt > now,
                  let session = try SessionRecord.fetchOne(db, key: token.sessionID), session.revokedAt == nil, session.appID == appID
            else { return nil }
            return (session.id, session.userID)
        }
    }

    func checkWithoutRotating(refreshToken: String, sessionID: String, userID: String, at now: Int64) async throws -> RefreshOutcome {
        try await database.read { db in
            guard let token = try RefreshTokenRecord.fetchOne(db, key: RefreshTokenValue.hash(refreshToken)), token.sessionID == sessionID,
                  let session = try SessionRecord.fetchOne(db, key: sessionID), session.userID == userID
            else { return .rejected("unknown refresh token") }
            guard session.revokedAt == nil else { return .rejected("session ended") }
            guard token.expiresAt > now else { return .rejected("refresh token expired") }
            guard token.rotatedAt == nil else { return .rejected("refresh token replaced") }
            return .rotated(refreshToken: refreshToken)
        }
    }

    func revoke(sessionID: String, reason: String, at now: Int64) async throws {
        try await database.write { db in try Self.revoke(db, sessionID: sessionID, reason: reason, now: now) }
    }

    func state(sessionID: String, userID: String) async throws -> SessionState {
        try await database.read { db in
            let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT (SELECT COUNT(*) FROM user WHERE id = ?) AS user_exists,
                       (SELECT COUNT(*) FROM session WHERE id = ? AND user_id = ? AND revoked_at IS NULL) AS session_live
                """), arguments: [userID, sessionID, userID])
            guard let row, row["user_exists"] as Int == 1 else { return .userGone }
            return row["session_live"] as Int == 1 ? .active : .revoked
        }
    }

    private static func revoke(_ db: Database, sessionID: String, reason: String, now: Int64) throws {
        try SessionRecord.filter(key: sessionID).filter(SessionRecord.Columns.revokedAt == nil)
            .updateAll(db, SessionRecord.Columns.revokedAt.set(to: now), SessionRecord.Columns.revokeReason.set(to: reason))
    }

    private static func issueRefreshToken(_ db: Database, sessionID: String, now: Int64, lifetimeMS: Int64) throws -> String {
        let value = RefreshTokenValue.generate()
        try db.cachedStatement(sql: "INSERT INTO refresh_token (hash, session_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
            .execute(arguments: [RefreshTokenValue.hash(value), sessionID, now, now + lifetimeMS])
        return value
    }
}
