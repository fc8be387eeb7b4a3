import Contracts
import Foundation
import GRDB
import Outbox
import SQLiteStorage
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
        var reading: RefreshTokenCodec.Reading
        var refreshToken: String
        var sessionID: String
        var userID: String
        var appID: String
        var now: Int64
    }

    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups
    private let tokens: SQLiteRefreshTokens
    /// Rotations are the busiest write of the service (every app renews every 15 minutes per
    /// user): concurrent ones share a transaction.
    private let rotations: WriteBatcher<Rotation, SQLiteRefreshTokens.Rotated>

    init(database: DatabasePool, lookups: SQLiteLookups, rules: RefreshRules) throws {
        let tokens = SQLiteRefreshTokens(rules: rules)
        self.database = database
        self.lookups = lookups
        self.tokens = tokens
        // A refresh's rotation is written on its loop when the file's writer is free.
        rotations = WriteBatcher(database: database, direct: try SQLiteDirectWriter(beside: database)) { db, rotation in
            try tokens.rotate(
                db, rotation.reading, token: rotation.refreshToken, sessionID: rotation.sessionID, userID: rotation.userID, appID: rotation.appID,
                now: rotation.now)
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
            let linked = try String.fetchOne(
                db, sql: "SELECT user_id FROM social_identity WHERE app_id = ? AND provider = ? AND subject = ?",
                arguments: [appID, identity.provider, identity.subject])
            if let linked, let existing = try SQLiteUserStore.user(db, id: linked, appID: appID) {
                return (existing, try open(db, session, userID: existing.id), false)
            }
            let emailFree =
                try email.isEmpty
                || Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE app_id = ? AND email_key = ?", arguments: [appID, email.lowercased()]) == 0
            let user = newUser(emailFree)
            try user.insert(db)
            try db.execute(
                sql: "INSERT INTO social_identity (app_id, provider, subject, user_id) VALUES (?, ?, ?, ?)",
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
        let first = tokens.first(sessionID: new.id, now: new.createdAt)
        try SessionRecord(
            id: new.id, appID: new.appID, userID: userID, deviceToken: new.deviceToken, createdAt: new.createdAt,
            refreshGeneration: first.claims.generation, refreshExpiresAt: first.claims.expiresAt
        ).insert(db)
        if let token = new.deviceToken {
            let event = DeviceTokenEvent(appID: new.appID, userID: userID, sessionID: new.id, deviceToken: token)
            try SQLiteOutboxStore.enqueue(db, topic: DeviceTokenEvent.topic, key: new.id, payload: event)
        }
        return first.token
    }

    func rotate(refreshToken: String, sessionID: String, userID: String, appID: String, at now: Int64) async throws -> RefreshOutcome {
        // The token's MAC is checked and the next token made here, on the caller's thread: the
        // writer's turn is the one part of a refresh that does not run in parallel.
        let codec = tokens.rules.codec
        let reading = codec.read(refreshToken)
        if reading == .invalid { return .rejected("unknown refresh token") }
        let rotation = Rotation(reading: reading, refreshToken: refreshToken, sessionID: sessionID, userID: userID, appID: appID, now: now)
        switch try await rotations.submit(rotation) {
        case .advanced(let next): return .rotated(refreshToken: codec.token(next))
        case .decided(let outcome): return outcome
        }
    }

    func rotateWithoutToken(sessionID: String, userID: String, at now: Int64) async throws -> RefreshOutcome {
        try await database.write { [tokens] db in try tokens.rotateWithoutToken(db, sessionID: sessionID, userID: userID, now: now) }
    }

    func session(refreshToken: String, appID: String, at now: Int64) async throws -> (sessionID: String, userID: String)? {
        try lookups.readNow { [tokens] db in try tokens.session(db, token: refreshToken, appID: appID, now: now) }
    }

    func checkWithoutRotating(refreshToken: String, sessionID: String, userID: String, at now: Int64) async throws -> RefreshOutcome {
        try lookups.readNow { [tokens] db in try tokens.check(db, token: refreshToken, sessionID: sessionID, userID: userID, now: now) }
    }

    func revoke(sessionID: String, reason: String, at now: Int64) async throws {
        try await database.write { db in try SQLiteRefreshTokens.revoke(db, sessionID: sessionID, reason: reason, now: now) }
    }

    func state(sessionID: String, userID: String) async throws -> SessionState {
        try lookups.readNow { db in
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT (SELECT COUNT(*) FROM user WHERE id = ?) AS user_exists,
                               (SELECT COUNT(*) FROM session WHERE id = ? AND user_id = ? AND revoked_at IS NULL) AS session_live
                        """), arguments: [userID, sessionID, userID])
            guard let row, row["user_exists"] as Int == 1 else { return .userGone }
            return row["session_live"] as Int == 1 ? .active : .revoked
        }
    }
}
