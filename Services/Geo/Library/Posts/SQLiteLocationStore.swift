import Contracts
import GRDB
import ServiceKit

/// `LocationStore` on geo-svc's SQLite file: a row per post and its R*Tree box (a point).
struct SQLiteLocationStore: LocationStore {
    let database: any DatabaseWriter

    func upsert(_ change: LocationChange, at location: Coordinate) async throws {
        try await database.write { db in
            guard let id = try Self.write(db, change, longitude: location.longitude, latitude: location.latitude, removed: false) else { return }
            try db.execute(
                sql: "INSERT OR REPLACE INTO post_location_box VALUES (?, ?, ?, ?, ?)",
                arguments: [id, location.longitude, location.longitude, location.latitude, location.latitude])
        }
    }

    func remove(_ change: LocationChange) async throws {
        try await database.write { db in
            // A post never placed here gets its row too (where no place is kept): a placing older
            // than the removal, delivered after it, must find it.
            guard let id = try Self.write(db, change, longitude: 0, latitude: 0, removed: true) else { return }
            try db.execute(sql: "DELETE FROM post_location_box WHERE id = ?", arguments: [id])
        }
    }

    /// The post's row as `change` says, unless its stored version is newer; its id when written.
    private static func write(_ db: Database, _ change: LocationChange, longitude: Double, latitude: Double, removed: Bool) throws -> Int64? {
        try db.execute(
            sql: """
                INSERT INTO post_location (post_id, app_id, category, longitude, latitude, created_at, version, removed)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, coalesce(?7, 0), ?8)
                ON CONFLICT(post_id) DO UPDATE SET app_id = excluded.app_id, category = excluded.category, longitude = excluded.longitude,
                    latitude = excluded.latitude, created_at = excluded.created_at, version = max(post_location.version, excluded.version),
                    removed = excluded.removed
                WHERE ?7 IS NULL OR ?7 >= post_location.version
                """, arguments: [change.postID, change.appID, change.category, longitude, latitude, change.createdAt, change.version, removed])
        guard db.changesCount > 0 else { return nil }
        return try Int64.fetchOne(db, sql: "SELECT id FROM post_location WHERE post_id = ?", arguments: [change.postID])
    }

    func posts(in boxes: [CoordinateBox], appID: String, categories: [String]) async throws -> [LocatedPost] {
        var sql = """
            SELECT l.post_id, l.longitude, l.latitude, l.created_at FROM post_location_box AS b CROSS JOIN post_location AS l ON l.id = b.id
            WHERE b.max_lon >= ? AND b.min_lon <= ? AND b.max_lat >= ? AND b.min_lat <= ? AND l.app_id = ?
            """
        // The categories as one JSON argument: GRDB's `StatementArguments` of a `[String]` builds a
        // key path at run time on every call, here once per box.
        var filter: StatementArguments = []
        if !categories.isEmpty {
            sql += " AND l.category IN (SELECT value FROM json_each(?))"
            filter = [JSONText.encode(categories)]
        }
        return try await database.read { [sql, filter] db in
            var found: [LocatedPost] = []
            for box in boxes {
                let arguments: StatementArguments =
                    [box.minLongitude, box.maxLongitude, box.minLatitude, box.maxLatitude, appID] + filter
                let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
                while let row = try rows.next() {
                    found.append(LocatedPost(postID: row[0], location: try Coordinate(latitude: row[2], longitude: row[1]), createdAt: row[3]))
                }
            }
            return found
        }
    }
}
