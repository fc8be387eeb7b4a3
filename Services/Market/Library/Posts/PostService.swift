import Contracts
import Foundation
import GRDB
import ServiceKit

/// Community posts (API.md §2): create, read, update, delete, likes, feeds, search, comments.
struct PostService: Sendable {
    let database: any DatabaseWriter
    let users: UsersClient
    let comments: CommentService
    /// Wakes the outbox relay after a transaction that recorded a location event.
    let locationsChanged: @Sendable () -> Void

    static let hashTagPattern = try! NSRegularExpression(pattern: "#([\\p{L}\\p{N}_]+)")

    func create(_ caller: AuthenticatedUser, _ request: PostCreateRequest, productID: String?, requestID: String) async throws -> PostAnswer {
        if let productID, productID.count > 100 { throw ServiceError.badRequest("ProductId too long") }
        let now = GlintDate.nowMilliseconds()
        var record = PostRecord(
            id: ObjectID.generate(), appID: caller.appID, creatorID: caller.userID, productID: productID, category: "",
            title: "", price: 0, content: "", createdAt: now, updatedAt: now
        )
        guard request.category != nil, request.title != nil, request.content != nil else {
            throw ServiceError.badRequest("category, title and content are required")
        }
        var fields = request
        (fields.price, fields.files, fields.isPublic) = (request.price ?? 0, request.files ?? [], request.isPublic ?? true)
        try PostRules.apply(fields, to: &record)
        let located = try await database.write { [record] db in
            try record.insert(db)
            return try Self.recordLocation(db, before: nil, after: record)
        }
        if located { locationsChanged() }
        return try await render([record], caller: caller, requestID: requestID)[0]
    }

    func post(_ id: String, caller: AuthenticatedUser, requestID: String) async throws -> PostAnswer {
        let record = try await visible(id, caller: caller)
        return try await render([record], caller: caller, requestID: requestID)[0]
    }

    /// Posts by id in the given order, as the caller's feeds would show them: public or the
    /// caller's own, of the caller's app, not by users the caller blocked. Others are left out.
    func posts(_ ids: [String], caller: AuthenticatedUser, requestID: String) async throws -> [PostAnswer] {
        let wanted = Array(Set(ids.filter(ObjectID.isValid)))
        guard !wanted.isEmpty else { return [] }
        let blocked = try await users.blocked(caller.userID, caller.appID, requestID)
        // `+app_id`: without statistics SQLite would rather walk the app's whole feed index than
        // look the ids up one by one (140 ms instead of 1 ms for 20 ids among a million posts).
        let found = try await database.read { db in
            try PostRecord.fetchAll(db, sql: """
                SELECT * FROM post WHERE id IN (\(databaseQuestionMarks(count: wanted.count))) AND +app_id = ? AND (is_public = 1 OR creator_id = ?)
                """, arguments: StatementArguments(wanted) + [caller.appID, caller.userID])
        }
        let byID = Dictionary(uniqueKeysWithValues: found.filter { !blocked.contains($0.creatorID) }.map { ($0.id, $0) })
        var seen = Set<String>()
        let ordered = ids.compactMap { id in seen.insert(id).inserted ? byID[id] : nil }
        return try await render(ordered, caller: caller, blocked: blocked, requestID: requestID)
    }

    /// Owner only: others get 445 (after 404 for what they cannot see).
    func update(_ id: String, caller: AuthenticatedUser, _ update: PostUpdateRequest, requestID: String) async throws -> PostAnswer {
        let before = try await visible(id, caller: caller)
        guard before.creatorID == caller.userID else { throw ServiceError(.notPermitted, "not your post") }
        var record = before
        try PostRules.apply(update, to: &record)
        record.updatedAt = GlintDate.nowMilliseconds()
        let moved = try await database.write { [record] db in
            try record.update(db)
            return try Self.recordLocation(db, before: before, after: record)
        }
        if moved { locationsChanged() }
        return try await render([record], caller: caller, requestID: requestID)[0]
    }

    func delete(_ id: String, caller: AuthenticatedUser) async throws {
        let record = try await visible(id, caller: caller)
        guard record.creatorID == caller.userID else { throw ServiceError(.notPermitted, "not your post") }
        let unlocated = try await database.write { db in
            _ = try PostRecord.deleteOne(db, key: record.id)
            try db.execute(sql: "DELETE FROM comment WHERE target_type = 'post' AND target_id = ?", arguments: [record.id])
            return try Self.recordLocation(db, before: record, after: nil)
        }
        if unlocated { locationsChanged() }
    }

    /// Queues what geo-svc must learn when a post's findable location changes: only public,
    /// located posts are on the map. Answers whether an event was recorded.
    static func recordLocation(_ db: Database, before: PostRecord?, after: PostRecord?) throws -> Bool {
        func mapped(_ post: PostRecord?) -> PostRecord? {
            guard let post, post.isPublic, post.longitude != nil, post.latitude != nil else { return nil }
            return post
        }
        let was = mapped(before), now = mapped(after)
        if was == nil, now == nil { return false }
        if let was, let now, was.longitude == now.longitude, was.latitude == now.latitude, was.category == now.category { return false }
        let post = (now ?? was)!
        let event = PostLocationEvent(postID: post.id, appID: post.appID, category: post.category, longitude: now?.longitude,
                                      latitude: now?.latitude, createdAt: post.createdAt, removed: now == nil)
        try Outbox.enqueue(db, topic: PostLocationEvent.topic, key: post.id, payload: event)
        return true
    }

    /// Sets the caller's like (kind 1) or like-2 (kind 2) to the wanted state; idempotent.
    func like(_ id: String, kind: Int, caller: AuthenticatedUser, status: Bool) async throws -> LikeStatus {
        let record = try await visible(id, caller: caller)
        try await database.write { db in
            if status {
                try db.execute(sql: "INSERT OR IGNORE INTO post_like (post_id, user_id, kind, created_at) VALUES (?, ?, ?, ?)",
                               arguments: [record.id, caller.userID, kind, GlintDate.nowMilliseconds()])
            } else {
                try db.execute(sql: "DELETE FROM post_like WHERE post_id = ? AND user_id = ? AND kind = ?", arguments: [record.id, caller.userID, kind])
            }
        }
        return LikeStatus(likeStatus: status)
    }

    /// Newest first: public posts (and the caller's own private ones), without users the caller
    /// blocked, optionally only some categories.
    func feed(
        _ feed: PostFeed, caller: AuthenticatedUser, categories: [String], productID: String? = nil, cursor: FeedCursor?, limit: Int, requestID: String
    ) async throws -> CursorPage<PostAnswer> {
        let blocked = try await users.blocked(caller.userID, caller.appID, requestID)
        var sql = "SELECT post.*, post.rowid AS sequence FROM post"
        var arguments: StatementArguments = []
        var conditions = ["post.app_id = ?", "(post.is_public = 1 OR post.creator_id = ?)"]
        arguments += [caller.appID, caller.userID]
        switch feed {
        case .all: break
        case .user(let userID):
            conditions.append("post.creator_id = ?")
            arguments += [userID]
        case .liked(let kind):
            conditions.append("EXISTS (SELECT 1 FROM post_like WHERE post_like.post_id = post.id AND post_like.user_id = ? AND post_like.kind = ?)")
            arguments += [caller.userID, kind]
        case .hashTag(let tag):
            conditions.append("EXISTS (SELECT 1 FROM json_each(post.hash_tags) WHERE json_each.value = ?)")
            arguments += [tag]
        }
        if let cursor {
            conditions.append("(post.created_at < ? OR (post.created_at = ? AND post.rowid < ?))")
            arguments += [cursor.createdAt, cursor.createdAt, cursor.sequence]
        }
        if let productID, !productID.isEmpty {
            conditions.append("post.product_id = ?")
            arguments += [productID]
        }
        if !categories.isEmpty {
            conditions.append("post.category IN (\(databaseQuestionMarks(count: categories.count)))")
            arguments += StatementArguments(categories)
        }
        if !blocked.isEmpty {
            conditions.append("post.creator_id NOT IN (\(databaseQuestionMarks(count: blocked.count)))")
            arguments += StatementArguments(Array(blocked))
        }
        sql += " WHERE " + conditions.joined(separator: " AND ") + " ORDER BY post.created_at DESC, post.rowid DESC LIMIT ?"
        arguments += [limit + 1]
        // Rows become Sendable values inside the closure: GRDB's async read needs a Sendable
        // result (returning `Row`s silently selects the blocking overload).
        let (rows, extras) = try await database.read { [sql, arguments, limit] db in
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in (record: try PostRecord(row: row), sequence: row["sequence"] as Int64) }
            return (rows, try Extras.load(db, postIDs: rows.prefix(limit).map(\.record.id)))
        }
        let page = rows.prefix(limit)
        let next = rows.count > limit ? page.last.map { FeedCursor(createdAt: $0.record.createdAt, sequence: $0.sequence).text } ?? FeedCursor.end : FeedCursor.end
        return CursorPage(data: try await render(page.map(\.record), extras: extras, caller: caller, blocked: blocked, requestID: requestID), nextCursor: next)
    }

    /// `GET /v1/posts/search?title=`: titles containing the words, newest first, 50 at most.
    func search(title: String?, caller: AuthenticatedUser, requestID: String) async throws -> DataList<PostAnswer> {
        let query = (title ?? "").trimmingCharacters(in: .whitespaces)
        guard (1...100).contains(query.count) else { throw ServiceError.badRequest("title must be 1-100 characters") }
        let blocked = try await users.blocked(caller.userID, caller.appID, requestID)
        let pattern = "%" + query.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        let records = try await database.read { db in
            try PostRecord.fetchAll(db, sql: """
                SELECT * FROM post WHERE app_id = ? AND (is_public = 1 OR creator_id = ?) AND title LIKE ? ESCAPE '\\'
                ORDER BY created_at DESC, rowid DESC LIMIT 50
                """, arguments: [caller.appID, caller.userID, pattern])
        }.filter { !blocked.contains($0.creatorID) }
        return DataList(data: try await render(records, caller: caller, blocked: blocked, requestID: requestID))
    }

    func comment(_ postID: String, caller: AuthenticatedUser, _ request: CommentRequest, requestID: String) async throws -> CommentAnswer {
        let post = try await visible(postID, caller: caller)
        let row = try await comments.create(caller, target: .post, targetID: post.id, request: request)
        return try await CommentService.answer(row, caller: caller, users: users, requestID: requestID)
    }

    func changeComment(_ postID: String, commentID: String, caller: AuthenticatedUser, content: String?, requestID: String) async throws -> CommentAnswer? {
        let post = try await visible(postID, caller: caller)
        guard let row = try await comments.change(caller, target: .post, targetID: post.id, commentID: commentID, content: content) else { return nil }
        return try await CommentService.answer(row, caller: caller, users: users, requestID: requestID)
    }

    /// Ids of a user's public posts, newest first (profiles list them).
    func postIDs(of userID: String, appID: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM post WHERE creator_id = ? AND app_id = ? AND is_public = 1 ORDER BY created_at DESC, rowid DESC LIMIT 1000",
                                arguments: [userID, appID])
        }
    }

    private func visible(_ id: String, caller: AuthenticatedUser) async throws -> PostRecord {
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid post id") }
        let record = try await database.read { db in
            try PostRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM post WHERE id = ? AND app_id = ?"), arguments: [id, caller.appID])
        }
        guard let record, record.isPublic || record.creatorID == caller.userID else { throw ServiceError.notFound("no such post") }
        return record
    }

    /// The likes and comments of a page of posts, read in the page's own transaction.
    struct Extras: Sendable {
        var likes: [(post: String, user: String, kind: Int)]
        var comments: [CommentService.Row]

        static func load(_ db: Database, postIDs ids: [String]) throws -> Extras {
            guard !ids.isEmpty else { return Extras(likes: [], comments: []) }
            let likes = try Row.fetchAll(db, sql: "SELECT post_id, user_id, kind FROM post_like WHERE post_id IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY created_at",
                                         arguments: StatementArguments(ids)).map { row -> (post: String, user: String, kind: Int) in (row["post_id"], row["user_id"], row["kind"]) }
            return Extras(likes: likes, comments: try CommentService.comments(db, of: .post, ids: ids))
        }
    }

    /// Posts with likes, comments and every user they mention, with one user lookup.
    private func render(_ records: [PostRecord], extras: Extras? = nil, caller: AuthenticatedUser, blocked: Set<String>? = nil, requestID: String) async throws -> [PostAnswer] {
        guard !records.isEmpty else { return [] }
        let hidden: Set<String>
        if let blocked { hidden = blocked } else { hidden = try await users.blocked(caller.userID, caller.appID, requestID) }
        let loaded: Extras
        if let extras { loaded = extras } else { loaded = try await database.read { [ids = records.map(\.id)] db in try Extras.load(db, postIDs: ids) } }
        let likes = loaded.likes
        let commentRows = loaded.comments.filter { !hidden.contains($0.creatorID) }
        let people = try await users.users(Array(Set(records.map(\.creatorID) + commentRows.map(\.creatorID))), caller.appID, requestID)
        let tree = CommentService.tree(commentRows, users: people)
        var likesByPost: [String: [Int: [String]]] = [:]
        for like in likes { likesByPost[like.post, default: [:]][like.kind, default: []].append(like.user) }
        return records.map { record in
            var answer = record.answer(creator: people.info(record.creatorID))
            answer.likes = likesByPost[record.id]?[1] ?? []
            answer.likes2 = likesByPost[record.id]?[2] ?? []
            answer.comments = tree[record.id] ?? []
            return answer
        }
    }

    static func hashTags(in content: String) -> [String] {
        let range = NSRange(content.startIndex..., in: content)
        var seen: [String] = []
        for match in hashTagPattern.matches(in: content, range: range) {
            if let tagRange = Range(match.range(at: 1), in: content) {
                let tag = String(content[tagRange])
                if !seen.contains(tag), seen.count < 30 { seen.append(tag) }
            }
        }
        return seen
    }
}
