import GRDB

extension WalkRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "walk"
}

/// `WalkStore` on geo-svc's SQLite file.
struct SQLiteWalkStore: WalkStore {
    let database: any DatabaseWriter

    func insert(_ walk: WalkRecord) async throws {
        try await database.write { db in try walk.insert(db) }
    }

    func walk(id: String, appID: String) async throws -> WalkRecord? {
        try await database.read { db in
            try WalkRecord.fetchOne(db, sql: "SELECT * FROM walk WHERE id = ? AND app_id = ?", arguments: [id, appID])
        }
    }

    func walks(of userID: String, appID: String, after: String?, limit: Int) async throws -> [WalkRecord] {
        let after = after ?? ""
        return try await database.read { db in
            try WalkRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM walk WHERE app_id = ? AND user_id = ?
                        AND (? = '' OR (created_at, rowid) < (SELECT created_at, rowid FROM walk WHERE id = ?))
                    ORDER BY created_at DESC, rowid DESC LIMIT ?
                    """, arguments: [appID, userID, after, after, limit])
        }
    }
}
