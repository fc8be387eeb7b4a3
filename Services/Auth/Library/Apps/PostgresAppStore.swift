import PostgresNIO
import PostgresStorage
import ServiceKit

/// `AppStore` on PostgreSQL.
struct PostgresAppStore: AppStore {
    let pool: PostgresPool

    func insert(_ app: AppRecord) async throws {
        let logger = pool.logger
        do {
            try await pool.transaction { connection in
                let keyTaken = try await Self.keyTaken(app.apiKey, connection, logger)
                var mountTaken = false
                if let mount = app.mount { mountTaken = try await connection.count("SELECT 1 FROM app WHERE mount = \(mount)", logger: logger) > 0 }
                try AppRules.checkNew(keyTaken: keyTaken, mountTaken: mountTaken)
                try await connection.query(try PostgresColumns(app).insert(into: "app"), logger: logger)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            // The same key or mount inserted by another replica between the checks and the insert.
            throw StoreError.conflict("an app with that key or mount exists")
        }
    }

    func insertFirst(_ app: AppRecord) async throws -> Bool {
        let logger = pool.logger
        return try await pool.transaction { connection in
            // Replicas starting together on an empty database take turns here.
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.firstAppLock))", logger: logger)
            guard try await connection.count("SELECT 1 FROM app LIMIT 1", logger: logger) == 0 else { return false }
            try await connection.query(try PostgresColumns(app).insert(into: "app"), logger: logger)
            return true
        }
    }

    private static let firstAppLock: Int64 = 0x676C_696E_7461_7070  // "glintapp"

    func app(key: String, at now: Int64) async throws -> AppRecord? {
        try await pool.read {
            try await $0.record(
                AppRecord.self,
                """
                SELECT * FROM app WHERE (api_key = \(key) OR (previous_api_key = \(key) AND previous_key_expires_at > \(now)))
                    AND disabled_at IS NULL
                """, logger: pool.logger)
        }
    }

    func app(id: String) async throws -> AppRecord? {
        try await pool.read { try await $0.record(AppRecord.self, "SELECT * FROM app WHERE id = \(id)", logger: pool.logger) }
    }

    func app(mount: String) async throws -> AppRecord? {
        try await pool.read { try await $0.record(AppRecord.self, "SELECT * FROM app WHERE mount = \(mount)", logger: pool.logger) }
    }

    func apps() async throws -> [AppRecord] {
        try await pool.read { try await $0.records(AppRecord.self, "SELECT * FROM app ORDER BY created_at", logger: pool.logger) }
    }

    func count() async throws -> Int {
        try await pool.read { Int(try await $0.value(Int64.self, "SELECT count(*) FROM app", logger: pool.logger) ?? 0) }
    }

    func updateSettings(_ app: AppRecord) async throws -> Bool {
        try await pool.transaction { connection in
            try await Self.changed(connection, pool.logger) {
                try await connection.value(
                    String.self,
                    """
                    UPDATE app SET refresh_with_access_token_only = \(app.refreshWithAccessTokenOnly), empty_auth_error_bodies = \(app.emptyAuthErrorBodies),
                        socket_auth_optional = \(app.socketAuthOptional), apple_client_ids = \(app.appleClientIDs), kakao_app_id = \(app.kakaoAppID),
                        apple_team_id = \(app.appleTeamID), apple_key_id = \(app.appleKeyID), apple_private_key = \(app.applePrivateKey)
                    WHERE id = \(app.id) RETURNING id
                    """, logger: pool.logger) != nil
            }
        }
    }

    func rotateKey(id: String, newKey: String, graceUntil: Int64) async throws -> Bool {
        let logger = pool.logger
        do {
            return try await pool.transaction { connection in
                try AppRules.checkNew(keyTaken: try await Self.keyTaken(newKey, connection, logger), mountTaken: false)
                return try await Self.changed(connection, logger) {
                    try await connection.value(
                        String.self,
                        """
                        UPDATE app SET previous_api_key = api_key, previous_key_expires_at = \(graceUntil), api_key = \(newKey)
                        WHERE id = \(id) RETURNING id
                        """, logger: logger) != nil
                }
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("an app with that key exists")
        }
    }

    func setDisabled(id: String, at: Int64?) async throws -> Bool {
        try await pool.transaction { connection in
            try await Self.changed(connection, pool.logger) {
                try await connection.value(String.self, "UPDATE app SET disabled_at = \(at) WHERE id = \(id) RETURNING id", logger: pool.logger)
                    != nil
            }
        }
    }

    /// An app's update (true when it found the app), then, if it did, the revocations' revision
    /// moved with the apps' (`RevocationSnapshot.appsRevision`) in the same transaction.
    private static func changed(_ connection: PostgresConnection, _ logger: Logger, _ update: () async throws -> Bool) async throws -> Bool {
        guard try await update() else { return false }
        try await connection.query("UPDATE ban_revision SET revision = revision + 1, apps_revision = apps_revision + 1", logger: logger)
        return true
    }

    /// Whether any app has the key, as its current one or a rotated-out one.
    private static func keyTaken(_ key: String, _ connection: PostgresConnection, _ logger: Logger) async throws -> Bool {
        try await connection.count("SELECT 1 FROM app WHERE api_key = \(key) OR previous_api_key = \(key)", logger: logger) > 0
    }
}
