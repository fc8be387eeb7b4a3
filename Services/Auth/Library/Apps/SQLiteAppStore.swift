import Contracts
import GRDB
import ServiceKit

extension AppRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "app"
}

extension Dialect: DatabaseValueConvertible {}

/// `AppStore` on auth-svc's SQLite file.
struct SQLiteAppStore: AppStore {
    let database: any DatabaseWriter

    func insert(_ app: AppRecord) async throws {
        try await database.write { db in
            let keyTaken = try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM app WHERE api_key = ?", arguments: [app.apiKey]) ?? false
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

    func app(key: String) async throws -> AppRecord? {
        try await database.read { db in try AppRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM app WHERE api_key = ?"), arguments: [key]) }
    }

    func app(id: String) async throws -> AppRecord? {
        try await database.read { db in try AppRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM app WHERE id = ?"), arguments: [id]) }
    }

    func app(mount: String) async throws -> AppRecord? {
        try await database.read { db in try AppRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM app WHERE mount = ?"), arguments: [mount]) }
    }

    func apps() async throws -> [AppRecord] {
        try await database.read { db in try AppRecord.fetchAll(db, sql: "SELECT * FROM app ORDER BY created_at") }
    }

    func count() async throws -> Int {
        try await database.read { db in try AppRecord.fetchCount(db) }
    }
}
