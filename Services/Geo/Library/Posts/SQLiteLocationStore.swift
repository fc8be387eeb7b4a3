import Contracts
import GRDB
import ServiceKit

/// `LocationStore` on geo-svc's SQLite file: a row per post and its R*Tree box (a point).
struct SQLiteLocationStore: LocationStore {
    let database: any DatabaseWriter

    func upsert(postID: String, appID: String, category: String, at location: Coordinate, createdAt: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: """
                INSERT INTO post_location (post_id, app_id, category, longitude, latitude, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(post_id) DO UPDATE SET app_id = excluded.app_id, category = excluded.category,
                    longitude = excluded.longitude, latitude = excluded.latitude, created_at = excluded.created_at
                """, arguments: [postID, appID, category, location.longitude, location.latitude, createdAt])
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM post_location WHERE post_id = ?", arguments: [postID])
            try db.execute(sql: "INSERT OR REPLACE INTO post_location_box VALUES (?, ?, ?, ?, ?)",
                           arguments: [id, location.longitude, location.longitude, location.latitude, location.latitude])
        }
    }

    func remove(postID: String) async throws {
        try await database.write { db in
            if let id = try Int64.fetchOne(db, sql: "SELECT id FROM post_location WHERE post_id = ?", arguments: [postID]) {
                try db.execute(sql: "DELETE FROM post_location WHERE id = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM post_location_box WHERE id = ?", arguments: [id])
            }
        }
    }

    func posts(in boxes: [CoordinateBox], appID: String, categories: [String]) async throws -> [LocatedPost] {
        var sql = """
            SELECT l.post_id, l.longitude, l.latitude, l.created_at FROM post_location_box AS b CROSS JOIN post_location AS l ON l.id = b.id
            WHERE b.max_lon >= ? AND b.min_lon <= ? AND b.max_lat >= ? AND b.min_lat <= ? AND l.app_id = ?
            """
        if !categories.isEmpty { sql += " AND l.category IN (\(databaseQuestionMarks(count: categories.count)))" }
        return try await database.read { [sql] db in
            var found: [LocatedPost] = []
            for box in boxes {
                let arguments: StatementArguments = [box.minLongitude, box.maxLongitude, box.minLatitude, box.maxLatitude, appID]
                    + StatementArguments(categories)
                let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
                while let row = try rows.next() {
                    found.append(LocatedPost(postID: row[0], location: try Coordinate(latitude: row[2], longitude: row[1]), createdAt: row[3]))
                }
            }
            return found
        }
    }
}
