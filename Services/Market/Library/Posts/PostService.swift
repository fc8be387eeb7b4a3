import Contracts
import Foundation
import GRDB
import ServiceKit

/// Community posts: create, read, feeds (API.md §2).
struct PostService: Sendable {
    let database: any DatabaseWriter
    let users: UserDirectory

    static let hashTagPattern = try! NSRegularExpression(pattern: "#([\\p{L}\\p{N}_]+)")

    func create(_ caller: AuthenticatedUser, _ request: PostCreateRequest, productID: String?, requestID: String) async throws -> PostAnswer {
        let category = request.category.trimmingCharacters(in: .whitespaces)
        let title = request.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...50).contains(category.count) else { throw ServiceError.badRequest("category must be 1-50 characters") }
        guard (1...200).contains(title.count) else { throw ServiceError.badRequest("title must be 1-200 characters") }
        guard request.content.count <= 5000 else { throw ServiceError.badRequest("content must be at most 5000 characters") }
        let price = request.price ?? 0
        guard (0...1_000_000_000).contains(price) else { throw ServiceError.badRequest("price must be 0 or more") }
        let contents = [request.content1, request.content2, request.content3, request.content4, request.content5].map { $0 ?? "" }
        guard contents.allSatisfy({ $0.count <= 1000 }) else { throw ServiceError.badRequest("content1-5 must be at most 1000 characters") }
        let files = request.files ?? []
        guard files.count <= 5, files.allSatisfy({ $0.hasPrefix("/data/posts/") && $0.count <= 100 }) else {
            throw ServiceError.badRequest("files must be at most 5 paths from POST /v1/posts/files")
        }
        switch (request.longitude, request.latitude) {
        case (nil, nil): break
        case (let longitude?, let latitude?) where (-180...180).contains(longitude) && (-90...90).contains(latitude): break
        default: throw ServiceError.badRequest("longitude and latitude go together and must be in range")
        }
        if let productID, productID.count > 100 { throw ServiceError.badRequest("ProductId too long") }
        let now = GlintDate.nowMilliseconds()
        var record = PostRecord(
            id: ObjectID.generate(), appID: caller.appID, creatorID: caller.userID, productID: productID, category: category,
            title: title, price: price, content: request.content, longitude: request.longitude, latitude: request.latitude,
            isPublic: request.isPublic ?? true, createdAt: now, updatedAt: now
        )
        (record.content1, record.content2, record.content3, record.content4, record.content5) = (contents[0], contents[1], contents[2], contents[3], contents[4])
        record.files = PostRecord.text(files)
        record.hashTags = PostRecord.text(Self.hashTags(in: request.content))
        try await database.write { [record] db in try record.insert(db) }
        return try await render([record], caller: caller, requestID: requestID)[0]
    }

    func post(_ id: String, caller: AuthenticatedUser, requestID: String) async throws -> PostAnswer {
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid post id") }
        let record = try await database.read { db in
            try PostRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM post WHERE id = ? AND app_id = ?"), arguments: [id, caller.appID])
        }
        guard let record, record.isPublic || record.creatorID == caller.userID else { throw ServiceError.notFound("no such post") }
        return try await render([record], caller: caller, requestID: requestID)[0]
    }

    /// Newest first, public posts (and the caller's own private ones), without users the caller
    /// blocked, optionally only some categories.
    func feed(caller: AuthenticatedUser, categories: [String], cursor: FeedCursor?, limit: Int, requestID: String) async throws -> CursorPage<PostAnswer> {
        let blocked = try await users.blocked(caller.userID, caller.appID, requestID)
        var sql = "SELECT *, rowid AS sequence FROM post WHERE app_id = ? AND (is_public = 1 OR creator_id = ?)"
        var arguments: StatementArguments = [caller.appID, caller.userID]
        if let cursor {
            sql += " AND (created_at < ? OR (created_at = ? AND rowid < ?))"
            arguments += [cursor.createdAt, cursor.createdAt, cursor.sequence]
        }
        if !categories.isEmpty {
            sql += " AND category IN (\(databaseQuestionMarks(count: categories.count)))"
            arguments += StatementArguments(categories)
        }
        if !blocked.isEmpty {
            sql += " AND creator_id NOT IN (\(databaseQuestionMarks(count: blocked.count)))"
            arguments += StatementArguments(Array(blocked))
        }
        sql += " ORDER BY created_at DESC, rowid DESC LIMIT ?"
        arguments += [limit + 1]
        let rows = try await database.read { [sql, arguments] db in try Row.fetchAll(db, sql: sql, arguments: arguments) }
        let page = try rows.prefix(limit).map { row in (record: try PostRecord(row: row), sequence: row["sequence"] as Int64) }
        let next = rows.count > limit ? page.last.map { FeedCursor(createdAt: $0.record.createdAt, sequence: $0.sequence).text } ?? FeedCursor.end : FeedCursor.end
        return CursorPage(data: try await render(page.map(\.record), caller: caller, requestID: requestID), nextCursor: next)
    }

    /// Ids of a user's posts the caller may see, newest first (profiles list them).
    func postIDs(of userID: String, appID: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM post WHERE creator_id = ? AND app_id = ? AND is_public = 1 ORDER BY created_at DESC, rowid DESC LIMIT 1000",
                                arguments: [userID, appID])
        }
    }

    /// Creators rendered with one lookup for the whole page.
    private func render(_ records: [PostRecord], caller: AuthenticatedUser, requestID: String) async throws -> [PostAnswer] {
        let creators = try await users.users(Array(Set(records.map(\.creatorID))), caller.appID, requestID)
        return records.map { record in
            let creator = creators[record.creatorID]?.summary ?? UserInfo(userID: record.creatorID, nick: "", profileImage: nil)
            return record.answer(creator: creator)
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
