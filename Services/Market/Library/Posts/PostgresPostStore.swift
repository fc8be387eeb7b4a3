import Contracts
import Outbox
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `PostStore` on PostgreSQL. A page's likes and comments are read on its connection right after
/// its posts (each statement sees the latest commits, so they are as new as the posts or newer).
struct PostgresPostStore: PostStore {
    let pool: PostgresPool
    let postChanges: PostgresChangeCounter

    func insert(_ post: PostRecord, location: PostLocationEvent?) async throws {
        try await write(location) { connection in
            try await connection.query(try PostgresColumns(post).insert(into: "post"), logger: pool.logger)
        }
    }

    func update(_ post: PostRecord, location: PostLocationEvent?) async throws {
        try await write(location) { connection in
            try await connection.query(try PostgresColumns(post).update("post", key: "id"), logger: pool.logger)
        }
    }

    func delete(_ post: PostRecord, location: PostLocationEvent?) async throws {
        try await write(location) { connection in
            try await connection.query("DELETE FROM post WHERE id = \(post.id)", logger: pool.logger)
            try await PostgresCommentStore.deleteComments(connection, of: .post, id: post.id, logger: pool.logger)
        }
    }

    /// `body` and the location event (when there is one) in one transaction.
    private func write(_ location: PostLocationEvent?, _ body: (PostgresConnection) async throws -> Void) async throws {
        try await pool.transaction { connection in
            try await body(connection)
            if let location {
                try await PostgresOutboxStore.enqueue(
                    connection, topic: PostLocationEvent.topic, key: location.postID, payload: location, logger: pool.logger)
            }
        }
        postChanges.bump()
    }

    func post(id: String, appID: String) async throws -> PostRecord? {
        try await pool.read { try await Self.post($0, id: id, appID: appID, logger: pool.logger) }
    }

    func postWithExtras(id: String, appID: String) async throws -> (record: PostRecord, extras: PostExtras)? {
        try await pool.read { connection in
            guard let record = try await Self.post(connection, id: id, appID: appID, logger: pool.logger) else { return nil }
            return (record, try await Self.extras(connection, postIDs: [record.id], logger: pool.logger))
        }
    }

    private static func post(_ connection: PostgresConnection, id: String, appID: String, logger: Logger) async throws -> PostRecord? {
        try await connection.record(
            PostRecord.self, "SELECT \(unescaped: PostRecord.selection) FROM post WHERE id = \(id) AND app_id = \(appID)", logger: logger)
    }

    func visiblePosts(ids: [String], appID: String, viewer: String) async throws -> [PostRecord] {
        guard !ids.isEmpty else { return [] }
        return try await pool.read { connection in
            try await connection.records(
                PostRecord.self,
                """
                SELECT \(unescaped: PostRecord.selection) FROM post WHERE id = ANY(\(ids)) AND app_id = \(appID) AND (is_public OR creator_id = \(viewer))
                """, logger: pool.logger)
        }
    }

    func page(_ query: PostPageQuery, kept: @Sendable ([String]) -> [String: PostAnswer]) async throws -> PostPage {
        var statement = PostgresStatement()
        var conditions = ["post.app_id = \(statement.bind(query.appID))", "(post.is_public OR post.creator_id = \(statement.bind(query.viewer)))"]
        switch query.feed {
        case .all: break
        case .user(let userID):
            conditions.append("post.creator_id = \(statement.bind(userID))")
        case .liked(let kind):
            conditions.append(
                """
                EXISTS (SELECT 1 FROM post_like WHERE post_like.post_id = post.id AND post_like.user_id = \(statement.bind(query.viewer))
                AND post_like.kind = \(statement.bind(kind)))
                """)
        case .hashTag(let tag):
            conditions.append("post.hash_tags::jsonb ? \(statement.bind(tag))")
        }
        if let cursor = query.after {
            conditions.append("(post.created_at, post.seq) < (\(statement.bind(cursor.createdAt)), \(statement.bind(cursor.sequence)))")
        }
        if let productID = query.productID, !productID.isEmpty {
            conditions.append("post.product_id = \(statement.bind(productID))")
        }
        if !query.categories.isEmpty {
            conditions.append("post.category = ANY(\(statement.bind(query.categories)))")
        }
        if !query.hidden.isEmpty {
            conditions.append("NOT post.creator_id = ANY(\(statement.bind(Array(query.hidden))))")
        }
        if !query.takenDown.isEmpty {
            conditions.append("NOT post.id = ANY(\(statement.bind(query.takenDown.sorted())))")
        }
        let sql =
            "SELECT \(PostRecord.selection), seq FROM post WHERE " + conditions.joined(separator: " AND ")
            + " ORDER BY post.created_at DESC, post.seq DESC LIMIT \(statement.bind(query.limit + 1))"
        let logger = pool.logger
        return try await pool.read { connection in
            let posts = try await connection.rows(statement.query(sql), logger: logger) { row in
                let record = try PostgresRecordDecoder.decode(PostRecord.self, from: row)
                return (record: record, cursor: FeedCursor(createdAt: record.createdAt, sequence: try row.value("seq")))
            }
            let asked = posts.prefix(query.limit).map(\.record.id)
            let found = kept(asked)
            let extras = try await Self.extras(connection, postIDs: found.isEmpty ? asked : asked.filter { found[$0] == nil }, logger: logger)
            return PostPage(posts: posts, kept: found, extras: extras)
        }
    }

    func search(title text: String, appID: String, viewer: String, limit: Int) async throws -> [PostRecord] {
        let pattern = LikePattern.containing(text)
        return try await pool.read { connection in
            try await connection.records(
                PostRecord.self,
                """
                SELECT \(unescaped: PostRecord.selection) FROM post WHERE app_id = \(appID) AND (is_public OR creator_id = \(viewer))
                AND title ILIKE \(pattern) ORDER BY created_at DESC, seq DESC LIMIT \(limit)
                """, logger: pool.logger)
        }
    }

    func extras(postIDs: [String]) async throws -> PostExtras {
        try await pool.read { try await Self.extras($0, postIDs: postIDs, logger: pool.logger) }
    }

    private static func extras(_ connection: PostgresConnection, postIDs ids: [String], logger: Logger) async throws -> PostExtras {
        guard !ids.isEmpty else { return PostExtras() }
        let likes = try await connection.rows(
            """
            SELECT post_id, user_id, kind FROM post_like WHERE post_id = ANY(\(ids)) ORDER BY created_at
            """, logger: logger
        ) { row in try PostExtras.Like(postID: row.value("post_id"), userID: row.value("user_id"), kind: row.value("kind")) }
        return PostExtras(likes: likes, comments: try await PostgresCommentStore.comments(connection, of: .post, ids: ids, logger: logger))
    }

    func setLike(postID: String, userID: String, kind: Int, on: Bool, at time: Int64) async throws {
        if on {
            try await pool.client.query(
                """
                INSERT INTO post_like (post_id, user_id, kind, created_at) VALUES (\(postID), \(userID), \(kind), \(time)) ON CONFLICT DO NOTHING
                """, logger: pool.logger)
        } else {
            try await pool.client.query(
                "DELETE FROM post_like WHERE post_id = \(postID) AND user_id = \(userID) AND kind = \(kind)", logger: pool.logger)
        }
        postChanges.bump()
    }

    func publicPostIDs(of userID: String, appID: String, limit: Int) async throws -> [String] {
        try await pool.read { connection in
            try await connection.values(
                String.self,
                """
                SELECT id FROM post WHERE creator_id = \(userID) AND app_id = \(appID) AND is_public ORDER BY created_at DESC, seq DESC LIMIT \(limit)
                """, logger: pool.logger)
        }
    }
}
