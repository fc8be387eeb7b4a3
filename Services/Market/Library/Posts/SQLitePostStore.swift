import Contracts
import GRDB
import Outbox
import SQLiteStorage
import ServiceKit

extension PostRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "post"

    /// A row of `selection`, by position: decoding each feed row by name through `Codable` cost
    /// more than reading it.
    init(row: Row) throws {
        self.init(
            id: row[0], appID: row[1], creatorID: row[2], productID: row[3], category: row[4], title: row[5], price: row[6], content: row[7],
            content1: row[8], content2: row[9], content3: row[10], content4: row[11], content5: row[12], files: row[13], hashTags: row[14],
            longitude: row[15], latitude: row[16], isPublic: row[17], createdAt: row[18], updatedAt: row[19]
        )
    }
}

/// `PostStore` on market-svc's SQLite file.
struct SQLitePostStore: PostStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func insert(_ post: PostRecord, location: PostLocationEvent?) async throws {
        try await database.write { db in
            try post.insert(db)
            try Self.enqueue(db, location)
        }
    }

    func update(_ post: PostRecord, location: PostLocationEvent?) async throws {
        try await database.write { db in
            try post.update(db)
            try Self.enqueue(db, location)
        }
    }

    func delete(_ post: PostRecord, location: PostLocationEvent?) async throws {
        try await database.write { db in
            _ = try PostRecord.deleteOne(db, key: post.id)
            try SQLiteCommentStore.deleteComments(db, of: .post, id: post.id)
            try Self.enqueue(db, location)
        }
    }

    private static func enqueue(_ db: Database, _ location: PostLocationEvent?) throws {
        guard let location else { return }
        try SQLiteOutboxStore.enqueue(db, topic: PostLocationEvent.topic, key: location.postID, payload: location)
    }

    func post(id: String, appID: String) async throws -> PostRecord? {
        try lookups.readNow { db in try Self.post(db, id: id, appID: appID) }
    }

    func postWithExtras(id: String, appID: String) async throws -> (record: PostRecord, extras: PostExtras)? {
        try await database.read { db in
            guard let record = try Self.post(db, id: id, appID: appID) else { return nil }
            return (record, try Self.extras(db, postIDs: [record.id]))
        }
    }

    private static func post(_ db: Database, id: String, appID: String) throws -> PostRecord? {
        try PostRecord.fetchOne(
            db.cachedStatement(sql: "SELECT \(PostRecord.selection) FROM post WHERE id = ? AND app_id = ?"), arguments: [id, appID])
    }

    func visiblePosts(ids: [String], appID: String, viewer: String) async throws -> [PostRecord] {
        guard !ids.isEmpty else { return [] }
        // `+app_id`: without statistics SQLite would rather walk the app's whole feed index than
        // look the ids up one by one (140 ms instead of 1 ms for 20 ids among a million posts).
        return try await database.read { db in
            try PostRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(PostRecord.selection) FROM post WHERE id IN (SELECT value FROM json_each(?)) AND +app_id = ? AND (is_public = 1 OR creator_id = ?)
                        """), arguments: [JSONText.encode(ids), appID, viewer])
        }
    }

    func page(_ query: PostPageQuery, kept: @Sendable ([String]) -> [String: PostAnswer]) async throws -> PostPage {
        var conditions = ["post.app_id = ?", "(post.is_public = 1 OR post.creator_id = ?)"]
        var arguments: StatementArguments = [query.appID, query.viewer]
        switch query.feed {
        case .all: break
        case .user(let userID):
            conditions.append("post.creator_id = ?")
            arguments += [userID]
        case .liked(let kind):
            conditions.append("EXISTS (SELECT 1 FROM post_like WHERE post_like.post_id = post.id AND post_like.user_id = ? AND post_like.kind = ?)")
            arguments += [query.viewer, kind]
        case .hashTag(let tag):
            conditions.append("EXISTS (SELECT 1 FROM json_each(post.hash_tags) WHERE json_each.value = ?)")
            arguments += [tag]
        }
        if let cursor = query.after {
            conditions.append("(post.created_at < ? OR (post.created_at = ? AND post.rowid < ?))")
            arguments += [cursor.createdAt, cursor.createdAt, cursor.sequence]
        }
        if let productID = query.productID, !productID.isEmpty {
            conditions.append("post.product_id = ?")
            arguments += [productID]
        }
        // Lists travel as one JSON parameter, so the statement's text depends only on which
        // conditions apply and each variant is prepared once per connection.
        if !query.categories.isEmpty {
            conditions.append("post.category IN (SELECT value FROM json_each(?))")
            arguments += [JSONText.encode(query.categories)]
        }
        if !query.hidden.isEmpty {
            conditions.append("post.creator_id NOT IN (SELECT value FROM json_each(?))")
            arguments += [JSONText.encode(Array(query.hidden))]
        }
        if !query.takenDown.isEmpty {
            conditions.append("post.id NOT IN (SELECT value FROM json_each(?))")
            arguments += [JSONText.encode(query.takenDown.sorted())]
        }
        let sql =
            "SELECT \(PostRecord.selection), post.rowid AS sequence FROM post WHERE " + conditions.joined(separator: " AND ")
            + " ORDER BY post.created_at DESC, post.rowid DESC LIMIT ?"
        arguments += [query.limit + 1]
        // Rows become Sendable values inside the closure: GRDB's async read needs a Sendable
        // result (returning `Row`s silently selects the blocking overload).
        return try await database.read { [sql, arguments, limit = query.limit] db in
            let posts = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
                let record = try PostRecord(row: row)
                return (record: record, cursor: FeedCursor(createdAt: record.createdAt, sequence: row[20]))
            }
            let asked = posts.prefix(limit).map(\.record.id)
            let found = kept(asked)
            return PostPage(
                posts: posts, kept: found, extras: try Self.extras(db, postIDs: found.isEmpty ? asked : asked.filter { found[$0] == nil }))
        }
    }

    func search(title text: String, appID: String, viewer: String, limit: Int) async throws -> [PostRecord] {
        let pattern = LikePattern.containing(text)
        return try await database.read { db in
            try PostRecord.fetchAll(
                db,
                sql: """
                    SELECT \(PostRecord.selection) FROM post WHERE app_id = ? AND (is_public = 1 OR creator_id = ?) AND title LIKE ? ESCAPE '\\'
                    ORDER BY created_at DESC, rowid DESC LIMIT ?
                    """, arguments: [appID, viewer, pattern, limit])
        }
    }

    func extras(postIDs: [String]) async throws -> PostExtras {
        try await database.read { db in try Self.extras(db, postIDs: postIDs) }
    }

    private static func extras(_ db: Database, postIDs ids: [String]) throws -> PostExtras {
        guard !ids.isEmpty else { return PostExtras() }
        let likes = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT post_id, user_id, kind FROM post_like WHERE post_id IN (SELECT value FROM json_each(?)) ORDER BY created_at
                    """), arguments: [JSONText.encode(ids)]
        ).map { row in PostExtras.Like(postID: row[0], userID: row[1], kind: row[2]) }
        return PostExtras(likes: likes, comments: try SQLiteCommentStore.comments(db, of: .post, ids: ids))
    }

    func setLike(postID: String, userID: String, kind: Int, on: Bool, at time: Int64) async throws {
        try await database.write { db in
            if on {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO post_like (post_id, user_id, kind, created_at) VALUES (?, ?, ?, ?)",
                    arguments: [postID, userID, kind, time])
            } else {
                try db.execute(sql: "DELETE FROM post_like WHERE post_id = ? AND user_id = ? AND kind = ?", arguments: [postID, userID, kind])
            }
        }
    }

    func publicPostIDs(of userID: String, appID: String, limit: Int) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id FROM post WHERE creator_id = ? AND app_id = ? AND is_public = 1 ORDER BY created_at DESC, rowid DESC LIMIT ?
                        """), arguments: [userID, appID, limit])
        }
    }
}
