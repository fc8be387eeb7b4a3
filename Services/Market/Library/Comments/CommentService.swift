import Contracts
import Foundation
import GRDB
import ServiceKit

/// Comments and one level of replies on posts and filters (API.md §2).
struct CommentService: Sendable {
    enum Target: String {
        case post, filter
    }

    struct Row: Sendable {
        var id: String
        var parentID: String?
        var targetID: String
        var creatorID: String
        var content: String
        var createdAt: Int64
    }

    let database: any DatabaseWriter

    static func validContent(_ content: String) throws -> String {
        let trimmed = content.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...1000).contains(trimmed.count) else { throw ServiceError.badRequest("content must be 1-1000 characters") }
        return trimmed
    }

    func create(_ caller: AuthenticatedUser, target: Target, targetID: String, request: CommentRequest) async throws -> Row {
        let content = try Self.validContent(request.content)
        if let parent = request.parentCommentID, !ObjectID.isValid(parent) { throw ServiceError.badRequest("invalid parent_comment_id") }
        let now = GlintDate.nowMilliseconds()
        let row = Row(id: ObjectID.generate(), parentID: request.parentCommentID, targetID: targetID, creatorID: caller.userID, content: content, createdAt: now)
        try await database.write { db in
            if let parent = row.parentID {
                // Replies hang off a top-level comment of the same target.
                let ok = try Bool.fetchOne(db, sql: """
                    SELECT COUNT(*) > 0 FROM comment WHERE id = ? AND target_type = ? AND target_id = ? AND parent_id IS NULL AND app_id = ?
                    """, arguments: [parent, target.rawValue, targetID, caller.appID]) ?? false
                guard ok else { throw ServiceError.notFound("no such parent comment") }
            }
            try db.execute(sql: """
                INSERT INTO comment (id, app_id, target_type, target_id, parent_id, creator_id, content, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [row.id, caller.appID, target.rawValue, targetID, row.parentID, caller.userID, content, now, now])
        }
        return row
    }

    /// Owner only (445 otherwise); nil content deletes.
    func change(_ caller: AuthenticatedUser, target: Target, targetID: String, commentID: String, content: String?) async throws -> Row? {
        guard ObjectID.isValid(commentID) else { throw ServiceError.badRequest("invalid comment id") }
        let newContent = try content.map(Self.validContent)
        return try await database.write { db -> Row? in
            guard let existing = try Self.fetch(db, sql: "SELECT * FROM comment WHERE id = ? AND target_type = ? AND target_id = ? AND app_id = ?",
                                                arguments: [commentID, target.rawValue, targetID, caller.appID]).first
            else { throw ServiceError.notFound("no such comment") }
            guard existing.creatorID == caller.userID else { throw ServiceError(.notPermitted, "not your comment") }
            guard let newContent else {
                try db.execute(sql: "DELETE FROM comment WHERE id = ?", arguments: [commentID])
                return nil
            }
            try db.execute(sql: "UPDATE comment SET content = ?, updated_at = ? WHERE id = ?", arguments: [newContent, GlintDate.nowMilliseconds(), commentID])
            var updated = existing
            updated.content = newContent
            return updated
        }
    }

    /// All comments of some targets, oldest first, without those of `hidden` users.
    func comments(of target: Target, ids: [String], hiding hidden: Set<String>) async throws -> [Row] {
        try await database.read { db in try Self.comments(db, of: target, ids: ids) }.filter { !hidden.contains($0.creatorID) }
    }

    /// The same inside a caller's read (a page and its comments in one snapshot).
    static func comments(_ db: Database, of target: Target, ids: [String]) throws -> [Row] {
        guard !ids.isEmpty else { return [] }
        return try fetch(db, sql: """
            SELECT * FROM comment WHERE target_type = ? AND target_id IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY created_at, rowid
            """, arguments: StatementArguments([target.rawValue]) + StatementArguments(ids))
    }

    /// Comments with their replies nested, per target.
    static func tree(_ rows: [Row], users: [String: UserInfoFull]) -> [String: [CommentAnswer]] {
        func answer(_ row: Row, replies: [CommentAnswer]?) -> CommentAnswer {
            CommentAnswer(commentID: row.id, content: row.content, createdAt: GlintDate.string(fromMilliseconds: row.createdAt),
                          creator: users.info(row.creatorID), replies: replies)
        }
        let replies = Dictionary(grouping: rows.filter { $0.parentID != nil }, by: { $0.parentID! })
        var byTarget: [String: [CommentAnswer]] = [:]
        for row in rows where row.parentID == nil {
            byTarget[row.targetID, default: []].append(answer(row, replies: (replies[row.id] ?? []).map { answer($0, replies: nil) }))
        }
        return byTarget
    }

    /// One new or edited comment as answered to its author (a top-level one with its empty replies).
    static func answer(_ row: Row, caller: AuthenticatedUser, users: UsersClient, requestID: String) async throws -> CommentAnswer {
        let creator = try await users.users([row.creatorID], caller.appID, requestID).info(row.creatorID)
        return CommentAnswer(commentID: row.id, content: row.content, createdAt: GlintDate.string(fromMilliseconds: row.createdAt),
                             creator: creator, replies: row.parentID == nil ? [] : nil)
    }

    private static func fetch(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Row] {
        try GRDB.Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            Row(id: row["id"], parentID: row["parent_id"], targetID: row["target_id"], creatorID: row["creator_id"],
                content: row["content"], createdAt: row["created_at"])
        }
    }
}
