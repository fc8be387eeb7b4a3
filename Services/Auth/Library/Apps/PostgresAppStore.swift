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
                let keyTaken = try await connection.count("SELECT 1 FROM app WHERE api_key = \(app.apiKey)", logger: logger) > 0
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

    func app(key: String) async throws -> AppRecord? {
        try await pool.read { try await $0.record(AppRecord.self, "SELECT * FROM app WHERE api_key = \(key)", logger: pool.logger) }
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
}
