import PostgresNIO
import PostgresStorage
import ServiceKit

/// `CommentStore` on PostgreSQL.
struct PostgresCommentStore: CommentStore {
    let pool: PostgresPool
    /// Comments are part of posts' answers: a write empties the post cache.
    let postChanges: PostgresChangeCounter

    func insert(_ comment: CommentRecord, target: CommentTarget, appID: String) async throws {
        let logger = pool.logger
        do {
            try await pool.transaction { connection in
                if let parentID = comment.parentID {
                    let parent = try await connection.rows(
                        "SELECT * FROM comment WHERE id = \(parentID) AND target_type = \(target.rawValue) AND app_id = \(appID)", logger: logger,
                        CommentRecord.init
                    ).first
                    try CommentRules.checkParent(parent, of: comment)
                }
                try await connection.query(
                    """
                    INSERT INTO comment (id, app_id, target_type, target_id, parent_id, creator_id, content, created_at, updated_at)
                    VALUES (\(comment.id), \(appID), \(target.rawValue), \(comment.targetID), \(comment.parentID), \(comment.creatorID),
                            \(comment.content), \(comment.createdAt), \(comment.updatedAt))
                    """, logger: logger)
            }
        } catch let error as PSQLError where error.isForeignKeyViolation {
            // The parent was removed by another request between the check and the insert.
            throw StoreError.notFound("no such parent comment")
        }
        postChanges.bump()
    }

    func change(
        _ commentID: String, target: CommentTarget, targetID: String, appID: String, by userID: String, content: String?, at time: Int64
    ) async throws -> CommentRecord? {
        let logger = pool.logger
        let changed = try await pool.transaction { connection -> CommentRecord? in
            var comment = try CommentRules.changeable(
                try await connection.rows(
                    """
                    SELECT * FROM comment WHERE id = \(commentID) AND target_type = \(target.rawValue) AND target_id = \(targetID) AND app_id = \(appID)
                    FOR UPDATE
                    """, logger: logger, CommentRecord.init
                ).first, by: userID)
            guard let content else {
                try await connection.query("DELETE FROM comment WHERE id = \(commentID)", logger: logger)
                return nil
            }
            try await connection.query("UPDATE comment SET content = \(content), updated_at = \(time) WHERE id = \(commentID)", logger: logger)
            (comment.content, comment.updatedAt) = (content, time)
            return comment
        }
        postChanges.bump()
        return changed
    }

    func comment(id: String, target: CommentTarget, appID: String) async throws -> CommentRecord? {
        try await pool.read { connection in
            try await connection.rows(
                "SELECT * FROM comment WHERE id = \(id) AND target_type = \(target.rawValue) AND app_id = \(appID)", logger: pool.logger,
                CommentRecord.init
            ).first
        }
    }

    func threads(of target: CommentTarget, id: String, hiding hidden: HiddenFilter, page: PageRequest, replies: Int) async throws -> CommentThreads {
        let (hiddenUsers, hiddenComments) = (Array(hidden.users), hidden.comments.sorted())
        let logger = pool.logger
        return try await pool.read { connection in
            let total =
                try await connection.value(
                    Int.self,
                    """
                    SELECT COUNT(*) FROM comment WHERE target_type = \(target.rawValue) AND target_id = \(id) AND parent_id IS NULL
                    AND NOT creator_id = ANY(\(hiddenUsers)) AND NOT id = ANY(\(hiddenComments))
                    """, logger: logger) ?? 0
            let roots = try await connection.rows(
                """
                SELECT * FROM comment WHERE target_type = \(target.rawValue) AND target_id = \(id) AND parent_id IS NULL
                AND NOT creator_id = ANY(\(hiddenUsers)) AND NOT id = ANY(\(hiddenComments)) ORDER BY created_at, seq LIMIT \(page.size) OFFSET \(page.offset)
                """, logger: logger, CommentRecord.init)
            // The first replies of each root: a window over the page's roots only.
            let firstReplies = try await connection.rows(
                """
                SELECT * FROM (
                    SELECT *, row_number() OVER (PARTITION BY parent_id ORDER BY created_at, seq) AS n FROM comment
                    WHERE parent_id = ANY(\(roots.map(\.id))) AND NOT creator_id = ANY(\(hiddenUsers)) AND NOT id = ANY(\(hiddenComments))
                ) first WHERE n <= \(replies) ORDER BY created_at, seq
                """, logger: logger, CommentRecord.init)
            return CommentThreads(roots: roots, total: total, replies: Dictionary(grouping: firstReplies) { $0.parentID ?? "" })
        }
    }

    func count(of target: CommentTarget, id: String, hiding hidden: HiddenFilter) async throws -> Int {
        let (hiddenUsers, hiddenComments) = (Array(hidden.users), hidden.comments.sorted())
        return try await pool.read { connection in
            // A hidden author's comment hides its replies too, as the list does.
            try await connection.value(
                Int.self,
                """
                SELECT COUNT(*) FROM comment c WHERE target_type = \(target.rawValue) AND target_id = \(id) AND NOT creator_id = ANY(\(hiddenUsers)) AND NOT id = ANY(\(hiddenComments))
                AND (parent_id IS NULL OR parent_id IN (
                    SELECT id FROM comment WHERE target_type = c.target_type AND target_id = c.target_id AND NOT creator_id = ANY(\(hiddenUsers)) AND NOT id = ANY(\(hiddenComments))))
                """, logger: pool.logger) ?? 0
        }
    }

    /// Every comment of the targets, oldest first, inside another store's read (a page and its comments).
    static func comments(_ connection: PostgresConnection, of target: CommentTarget, ids: [String], logger: Logger) async throws -> [CommentRecord] {
        guard !ids.isEmpty else { return [] }
        return try await connection.rows(
            """
            SELECT * FROM comment WHERE target_type = \(target.rawValue) AND target_id = ANY(\(ids)) ORDER BY created_at, seq
            """, logger: logger, CommentRecord.init)
    }

    /// Removes a target's comments inside the transaction that removes the target.
    static func deleteComments(_ connection: PostgresConnection, of target: CommentTarget, id: String, logger: Logger) async throws {
        try await connection.query("DELETE FROM comment WHERE target_type = \(target.rawValue) AND target_id = \(id)", logger: logger)
    }
}

extension CommentRecord {
    /// A row of `comment`.
    init(_ row: PostgresRandomAccessRow) throws {
        try self.init(
            id: row.value("id"), parentID: row.value("parent_id"), targetID: row.value("target_id"), creatorID: row.value("creator_id"),
            content: row.value("content"), createdAt: row.value("created_at"), updatedAt: row.value("updated_at"))
    }
}
