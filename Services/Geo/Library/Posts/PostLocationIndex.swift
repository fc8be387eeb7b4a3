import Contracts
import GRDB
import ServiceKit

/// The located posts: kept in step with market-svc's location events, searched by radius.
struct PostLocationIndex: Sendable {
    let database: any DatabaseWriter

    /// Applies one event; applying it again changes nothing (the outbox may deliver twice).
    func apply(_ event: PostLocationEvent) async throws {
        guard ObjectID.isValid(event.postID), !event.appID.isEmpty, event.appID.count <= 64, event.category.count <= 200 else {
            throw ServiceError.badRequest("invalid location event")
        }
        var location: Coordinate?
        if !event.removed, let latitude = event.latitude, let longitude = event.longitude {
            location = try Coordinate(latitude: latitude, longitude: longitude)
        }
        try await database.write { [location] db in
            guard let location else {
                if let id = try Int64.fetchOne(db, sql: "SELECT id FROM post_location WHERE post_id = ?", arguments: [event.postID]) {
                    try db.execute(sql: "DELETE FROM post_location WHERE id = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM post_location_box WHERE id = ?", arguments: [id])
                }
                return
            }
            try db.execute(sql: """
                INSERT INTO post_location (post_id, app_id, category, longitude, latitude, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(post_id) DO UPDATE SET app_id = excluded.app_id, category = excluded.category,
                    longitude = excluded.longitude, latitude = excluded.latitude, created_at = excluded.created_at
                """, arguments: [event.postID, event.appID, event.category, location.longitude, location.latitude, event.createdAt])
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM post_location WHERE post_id = ?", arguments: [event.postID])
            try db.execute(sql: "INSERT OR REPLACE INTO post_location_box VALUES (?, ?, ?, ?, ?)",
                           arguments: [id, location.longitude, location.longitude, location.latitude, location.latitude])
        }
    }

    /// The app's posts within the radius, ordered and cut to the query's limit.
    func search(_ query: NearbyQuery) async throws -> [NearbyPost] {
        let boxes = GreatCircle.boxes(around: query.center, radius: query.radius)
        var sql = """
            SELECT l.post_id, l.longitude, l.latitude, l.created_at FROM post_location_box AS b CROSS JOIN post_location AS l ON l.id = b.id
            WHERE b.max_lon >= ? AND b.min_lon <= ? AND b.max_lat >= ? AND b.min_lat <= ? AND l.app_id = ?
            """
        if !query.categories.isEmpty { sql += " AND l.category IN (\(databaseQuestionMarks(count: query.categories.count)))" }
        let candidates = try await database.read { [sql] db in
            var found: [NearbyPost] = []
            for box in boxes {
                let arguments: StatementArguments = [box.minLongitude, box.maxLongitude, box.minLatitude, box.maxLatitude, query.appID]
                    + StatementArguments(query.categories)
                let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
                while let row = try rows.next() {
                    let point = try Coordinate(latitude: row[2], longitude: row[1])
                    found.append(NearbyPost(postID: row[0], distance: GreatCircle.distance(query.center, point), createdAt: row[3]))
                }
            }
            return found
        }
        let within = candidates.filter { $0.distance <= query.radius }
        return Array(query.order.sorted(within, ascending: query.ascending).prefix(query.limit))
    }
}

/// A post found near a point: metres away, and when it was created (for date order).
struct NearbyPost: Sendable, Equatable {
    var postID: String
    var distance: Double
    var createdAt: Int64
}
