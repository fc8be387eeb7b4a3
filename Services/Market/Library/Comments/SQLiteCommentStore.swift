import Contracts
import GRDB
import SQLiteStorage
import ServiceKit

/// `CommentStore` on market-svc's SQLite file.
struct SQLiteCommentStore: CommentStore {
    let database: any DatabaseWriter

    func insert(_ comment: CommentRecord, target: CommentTarget, appID: String) async throws {
        try await database.write { db in
            if let parentID = comment.parentID {
                let parent = try Self.fetch(
                    db, sql: "SELECT * FROM comment WHERE id = ? AND target_type = ? AND app_id = ?", arguments: [parentID, target.rawValue, appID]
                ).first
                try CommentRules.checkParent(parent, of: comment)
            }
            try db.execute(
                sql: """
                    INSERT INTO comment (id, app_id, target_type, target_id, parent_id, creator_id, content, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    comment.id, appID, target.rawValue, comment.targetID, comment.parentID, comment.creatorID, comment.content,
                    comment.createdAt, comment.updatedAt,
                ])
        }
    }

    func change(
        _ commentID: String, target: CommentTarget, targetID: String, appID: String, by userID: String, content: String?, at time: Int64
    ) async throws -> CommentRecord? {
        try await database.write { db -> CommentRecord? in
            var comment = try CommentRules.changeable(
                try Self.fetch(
                    db, sql: "SELECT * FROM comment WHERE id = ? AND target_type = ? AND target_id = ? AND app_id = ?",
                    arguments: [commentID, target.rawValue, targetID, appID]
                ).first, by: userID)
            guard let content else {
                try db.execute(sql: "DELETE FROM comment WHERE id = ?", arguments: [commentID])
                return nil
            }
            try db.execute(sql: "UPDATE comment SET content = ?, updated_at = ? WHERE id = ?", arguments: [content, time, commentID])
            (comment.content, comment.updatedAt) = (content, time)
            return comment
        }
    }

    func comment(id: String, target: CommentTarget, appID: String) async throws -> CommentRecord? {
        try await database.read { db in
            try Self.fetch(db, sql: "SELECT * FROM comment WHERE id = ? AND target_type = ? AND app_id = ?", arguments: [id, target.rawValue, appID])
                .first
        }
    }

    /// The condition leaving out hidden users' and hidden comments, and its arguments.
    private static func visibility(_ hidden: HiddenFilter) -> (String, StatementArguments) {
        var condition = ""
        var arguments: StatementArguments = []
        if !hidden.users.isEmpty {
            condition += " AND creator_id NOT IN (SELECT value FROM json_each(?))"
            arguments += [hidden.usersJSON]
        }
        if !hidden.comments.isEmpty {
            condition += " AND id NOT IN (SELECT value FROM json_each(?))"
            arguments += [hidden.commentsJSON]
        }
        return (condition, arguments)
    }

    func threads(of target: CommentTarget, id: String, hiding hidden: HiddenFilter, page: PageRequest, replies: Int) async throws -> CommentThreads {
        let (visible, hiddenArgument) = Self.visibility(hidden)
        let scope: StatementArguments = [target.rawValue, id]
        return try await database.read { db in
            let total =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT COUNT(*) FROM comment WHERE target_type = ? AND target_id = ? AND parent_id IS NULL\(visible)
                            """), arguments: scope + hiddenArgument) ?? 0
            let roots = try Self.fetch(
                db,
                sql: """
                    SELECT * FROM comment WHERE target_type = ? AND target_id = ? AND parent_id IS NULL\(visible)
                    ORDER BY created_at, rowid LIMIT ? OFFSET ?
                    """, arguments: scope + hiddenArgument + [page.size, page.offset])
            // The first replies of each root: a window over the page's roots only.
            let firstReplies = try Self.fetch(
                db,
                sql: """
                    SELECT * FROM (
                        SELECT *, row_number() OVER (PARTITION BY parent_id ORDER BY created_at, rowid) AS n FROM comment
                        WHERE parent_id IN (SELECT value FROM json_each(?))\(visible)
                    ) WHERE n <= ? ORDER BY created_at, rowid
                    """, arguments: [JSONText.encode(roots.map(\.id))] + hiddenArgument + [replies])
            return CommentThreads(roots: roots, total: total, replies: Dictionary(grouping: firstReplies) { $0.parentID ?? "" })
        }
    }

    func count(of target: CommentTarget, id: String, hiding hidden: HiddenFilter) async throws -> Int {
        let (visible, hiddenArgument) = Self.visibility(hidden)
        return try await database.read { db in
            // A hidden author's comment hides its replies too, as the list does.
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) FROM comment c WHERE target_type = ? AND target_id = ?\(visible)
                        AND (parent_id IS NULL OR parent_id IN (SELECT id FROM comment WHERE target_type = c.target_type AND target_id = c.target_id\(visible)))
                        """), arguments: [target.rawValue, id] + hiddenArgument + hiddenArgument) ?? 0
        }
    }

    /// Every comment of the targets, oldest first, inside another store's read (a page and its comments in one snapshot).
    static func comments(_ db: Database, of target: CommentTarget, ids: [String]) throws -> [CommentRecord] {
        guard !ids.isEmpty else { return [] }
        return try fetch(
            db,
            sql: """
                SELECT * FROM comment WHERE target_type = ? AND target_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid
                """, arguments: [target.rawValue, JSONText.encode(ids)])
    }

    /// Removes a target's comments inside the transaction that removes the target.
    static func deleteComments(_ db: Database, of target: CommentTarget, id: String) throws {
        try db.execute(sql: "DELETE FROM comment WHERE target_type = ? AND target_id = ?", arguments: [target.rawValue, id])
    }

    private static func fetch(_ db: Database, sql: String, arguments: StatementArguments) throws -> [CommentRecord] {
        try Row.decodeAll(db.cachedStatement(sql: sql), arguments: arguments) { row in
            CommentRecord(
                id: row["id"], parentID: row["parent_id"], targetID: row["target_id"], creatorID: row["creator_id"],
                content: row["content"], createdAt: row["created_at"], updatedAt: row["updated_at"])
        }
    }
}
