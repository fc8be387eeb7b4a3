import Contracts
import GRDB
import SQLiteStorage
import ServiceKit

extension AppRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "app"
}

extension Dialect: DatabaseValueConvertible {}

/// `AppStore` on auth-svc's SQLite file.
struct SQLiteAppStore: AppStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func insert(_ app: AppRecord) async throws {
        try await database.write { db in
            let keyTaken = try Self.keyTaken(app.apiKey, db)
            let mountTaken = try app.mount.map {
                try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM app WHERE mount = ?", arguments: [$0]) ?? false
            }
            try AppRules.checkNew(keyTaken: keyTaken, mountTaken: mountTaken ?? false)
            try app.insert(db)
        }
    }

    func insertFirst(_ app: AppRecord) async throws -> Bool {
        // The file's one writer: no other insert comes between the count and this one.
        try await database.write { db in
            guard try AppRecord.fetchCount(db) == 0 else { return false }
            try app.insert(db)
            return true
        }
    }

    func app(key: String, at now: Int64) async throws -> AppRecord? {
        try lookups.readNow { db in
            try AppRecord.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM app WHERE (api_key = ? OR (previous_api_key = ? AND previous_key_expires_at > ?)) AND disabled_at IS NULL
                        """), arguments: [key, key, now])
        }
    }

    func app(id: String) async throws -> AppRecord? {
        try lookups.readNow { db in try AppRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM app WHERE id = ?"), arguments: [id]) }
    }

    func app(mount: String) async throws -> AppRecord? {
        try lookups.readNow { db in try AppRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM app WHERE mount = ?"), arguments: [mount]) }
    }

    func apps() async throws -> [AppRecord] {
        try await database.read { db in try AppRecord.fetchAll(db, sql: "SELECT * FROM app ORDER BY created_at") }
    }

    func count() async throws -> Int {
        try await database.read { db in try AppRecord.fetchCount(db) }
    }

    func updateSettings(_ app: AppRecord) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: """
                    UPDATE app SET refresh_with_access_token_only = ?, empty_auth_error_bodies = ?, socket_auth_optional = ?,
                        apple_client_ids = ?, kakao_app_id = ?, apple_team_id = ?, apple_key_id = ?, apple_private_key = ? WHERE id = ?
                    """,
                arguments: [
                    app.refreshWithAccessTokenOnly, app.emptyAuthErrorBodies, app.socketAuthOptional, app.appleClientIDs, app.kakaoAppID,
                    app.appleTeamID, app.appleKeyID, app.applePrivateKey, app.id,
                ])
            return try Self.changed(db)
        }
    }

    func rotateKey(id: String, newKey: String, graceUntil: Int64) async throws -> Bool {
        try await database.write { db in
            try AppRules.checkNew(keyTaken: try Self.keyTaken(newKey, db), mountTaken: false)
            try db.execute(
                sql: "UPDATE app SET previous_api_key = api_key, previous_key_expires_at = ?, api_key = ? WHERE id = ?",
                arguments: [graceUntil, newKey, id])
            return try Self.changed(db)
        }
    }

    func setDisabled(id: String, at: Int64?) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "UPDATE app SET disabled_at = ? WHERE id = ?", arguments: [at, id])
            return try Self.changed(db)
        }
    }

    /// After an app's update: whether it found the app, and if so the revocations' revision
    /// moved with the apps' (`RevocationSnapshot.appsRevision`), in the same transaction.
    private static func changed(_ db: Database) throws -> Bool {
        guard db.changesCount == 1 else { return false }
        try db.execute(sql: "UPDATE ban_revision SET revision = revision + 1, apps_revision = apps_revision + 1")
        return true
    }

    /// Whether any app has the key, as its current one or a rotated-out one.
    private static func keyTaken(_ key: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM app WHERE api_key = ? OR previous_api_key = ?", arguments: [key, key]) ?? false
    }
}
