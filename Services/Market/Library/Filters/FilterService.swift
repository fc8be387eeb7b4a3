import Contracts
import Foundation
import GRDB
import ServiceKit

/// The filter marketplace (API.md §2): filters, their likes, lists and comments.
struct FilterService: Sendable {
    enum Order: String {
        case latest, likes, purchase
    }

    let database: any DatabaseWriter
    let users: UsersClient
    let comments: CommentService

    func create(_ caller: AuthenticatedUser, _ request: FilterRequest, requestID: String) async throws -> FilterDetail {
        guard request.category != nil, request.title != nil, request.price != nil, request.description != nil, request.files != nil,
              request.filterValues != nil
        else { throw ServiceError.badRequest("category, title, price, description, files and filter_values are required") }
        let now = GlintDate.nowMilliseconds()
        var record = FilterRecord(id: ObjectID.generate(), appID: caller.appID, creatorID: caller.userID, category: "", title: "",
                                  description: "", price: 0, files: "[]", filterValues: "{}", createdAt: now, updatedAt: now)
        try Self.apply(request, to: &record)
        try await database.write { [record] db in try record.insert(db) }
        return try await detail(record.id, caller: caller, requestID: requestID)
    }

    func detail(_ id: String, caller: AuthenticatedUser, requestID: String) async throws -> FilterDetail {
        let record = try await find(id, caller: caller)
        let blocked = try await users.blocked(caller.userID, caller.appID, requestID)
        let commentRows = try await comments.comments(of: .filter, ids: [record.id], hiding: blocked)
        let people = try await users.users(Array(Set([record.creatorID] + commentRows.map(\.creatorID))), caller.appID, requestID)
        let stats = try await self.stats([record.id], caller: caller)
        let downloaded = record.creatorID == caller.userID || stats.bought.contains(record.id)
        return FilterDetail(
            summary: summary(record, people: people, stats: stats), price: record.price, photoMetadata: record.metadata,
            filterValues: record.values, isDownloaded: downloaded, comments: CommentService.tree(commentRows, users: people)[record.id] ?? []
        )
    }

    func update(_ id: String, caller: AuthenticatedUser, _ request: FilterRequest, requestID: String) async throws -> FilterDetail {
        var record = try await find(id, caller: caller)
        guard record.creatorID == caller.userID else { throw ServiceError(.notPermitted, "not your filter") }
        try Self.apply(request, to: &record)
        record.updatedAt = GlintDate.nowMilliseconds()
        try await database.write { [record] db in try record.update(db) }
        return try await detail(id, caller: caller, requestID: requestID)
    }

    /// A filter someone bought stays (its buyers keep it); otherwise the owner may delete it.
    func delete(_ id: String, caller: AuthenticatedUser) async throws {
        let record = try await find(id, caller: caller)
        guard record.creatorID == caller.userID else { throw ServiceError(.notPermitted, "not your filter") }
        try await database.write { db in
            let sold = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM purchase_order WHERE filter_id = ?", arguments: [id]) ?? 0
            guard sold == 0 else { throw ServiceError(.conflict, "a filter with orders cannot be deleted") }
            _ = try FilterRecord.deleteOne(db, key: id)
            try db.execute(sql: "DELETE FROM comment WHERE target_type = 'filter' AND target_id = ?", arguments: [id])
        }
    }

    func like(_ id: String, caller: AuthenticatedUser, status: Bool) async throws -> LikeStatus {
        let record = try await find(id, caller: caller)
        try await database.write { db in
            if status {
                try db.execute(sql: "INSERT OR IGNORE INTO filter_like (filter_id, user_id, created_at) VALUES (?, ?, ?)",
                               arguments: [record.id, caller.userID, GlintDate.nowMilliseconds()])
            } else {
                try db.execute(sql: "DELETE FROM filter_like WHERE filter_id = ? AND user_id = ?", arguments: [record.id, caller.userID])
            }
        }
        return LikeStatus(likeStatus: status)
    }

    enum Scope: Equatable {
        case all, user(String), likedByMe
    }

    /// Cursor lists. `latest` pages by creation; `likes` and `purchase` are rankings paged by
    /// position (cursor `o<offset>`).
    func list(_ scope: Scope, order: Order, category: String?, next: String?, limit: Int, caller: AuthenticatedUser, requestID: String) async throws -> CursorPage<FilterSummary> {
        let blocked = try await users.blocked(caller.userID, caller.appID, requestID)
        var conditions = ["filter.app_id = ?"]
        var arguments: StatementArguments = [caller.appID]
        switch scope {
        case .all: break
        case .user(let id):
            conditions.append("filter.creator_id = ?")
            arguments += [id]
        case .likedByMe:
            conditions.append("EXISTS (SELECT 1 FROM filter_like WHERE filter_like.filter_id = filter.id AND filter_like.user_id = ?)")
            arguments += [caller.userID]
        }
        if let category, !category.isEmpty {
            conditions.append("filter.category = ?")
            arguments += [category]
        }
        if !blocked.isEmpty {
            conditions.append("filter.creator_id NOT IN (\(databaseQuestionMarks(count: blocked.count)))")
            arguments += StatementArguments(Array(blocked))
        }
        var sql = "SELECT filter.*, filter.rowid AS sequence FROM filter"
        var offset = 0
        switch order {
        case .latest:
            if let cursor = try FeedCursor.parse(next) {
                conditions.append("(filter.created_at < ? OR (filter.created_at = ? AND filter.rowid < ?))")
                arguments += [cursor.createdAt, cursor.createdAt, cursor.sequence]
            }
            sql += " WHERE " + conditions.joined(separator: " AND ") + " ORDER BY filter.created_at DESC, filter.rowid DESC LIMIT ?"
        case .likes, .purchase:
            if let next, !next.isEmpty, next != FeedCursor.end {
                guard next.hasPrefix("o"), let value = Int(next.dropFirst()), value >= 0 else { throw ServiceError.badRequest("invalid next cursor") }
                offset = value
            }
            let rank = order == .likes
                ? "(SELECT COUNT(*) FROM filter_like WHERE filter_like.filter_id = filter.id)"
                : "(SELECT COUNT(*) FROM purchase_order WHERE purchase_order.filter_id = filter.id AND purchase_order.paid_at IS NOT NULL)"
            sql += " WHERE " + conditions.joined(separator: " AND ") + " ORDER BY \(rank) DESC, filter.created_at DESC, filter.rowid DESC LIMIT ? OFFSET \(offset)"
        }
        arguments += [limit + 1]
        let rows = try await database.read { [sql, arguments] db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in (record: try FilterRecord(row: row), sequence: row["sequence"] as Int64) }
        }
        let page = rows.prefix(limit)
        var nextCursor = FeedCursor.end
        if rows.count > limit, let last = page.last {
            nextCursor = order == .latest ? FeedCursor(createdAt: last.record.createdAt, sequence: last.sequence).text : "o\(offset + limit)"
        }
        return CursorPage(data: try await summaries(page.map(\.record), caller: caller, requestID: requestID), nextCursor: nextCursor)
    }

    func comment(_ id: String, caller: AuthenticatedUser, _ request: CommentRequest, requestID: String) async throws -> CommentAnswer {
        let record = try await find(id, caller: caller)
        let row = try await comments.create(caller, target: .filter, targetID: record.id, request: request)
        return try await CommentService.answer(row, caller: caller, users: users, requestID: requestID)
    }

    func changeComment(_ id: String, commentID: String, caller: AuthenticatedUser, content: String?, requestID: String) async throws -> CommentAnswer? {
        let record = try await find(id, caller: caller)
        guard let row = try await comments.change(caller, target: .filter, targetID: record.id, commentID: commentID, content: content) else { return nil }
        return try await CommentService.answer(row, caller: caller, users: users, requestID: requestID)
    }

    func find(_ id: String, caller: AuthenticatedUser) async throws -> FilterRecord {
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid filter id") }
        let record = try await database.read { db in
            try FilterRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM filter WHERE id = ? AND app_id = ?"), arguments: [id, caller.appID])
        }
        guard let record else { throw ServiceError.notFound("no such filter") }
        return record
    }

    /// Filters by id in the given order (deleted ones skipped), without blocked creators.
    func records(_ ids: [String], caller: AuthenticatedUser) async throws -> [FilterRecord] {
        let found = try await database.read { db in
            try FilterRecord.fetchAll(db, sql: "SELECT * FROM filter WHERE app_id = ? AND id IN (\(databaseQuestionMarks(count: ids.count)))",
                                      arguments: StatementArguments([caller.appID]) + StatementArguments(ids))
        }
        let byID = Dictionary(uniqueKeysWithValues: found.map { ($0.id, $0) })
        return ids.compactMap { byID[$0] }
    }

    func summaries(_ records: [FilterRecord], caller: AuthenticatedUser, requestID: String) async throws -> [FilterSummary] {
        guard !records.isEmpty else { return [] }
        let people = try await users.users(Array(Set(records.map(\.creatorID))), caller.appID, requestID)
        let stats = try await stats(records.map(\.id), caller: caller)
        return records.map { summary($0, people: people, stats: stats) }
    }

    struct Stats {
        var likes: [String: Int] = [:]
        var buyers: [String: Int] = [:]
        var liked: Set<String> = []
        var bought: Set<String> = []
    }

    /// Like and buyer counts, and what the caller liked or bought, for a page in two queries.
    private func stats(_ ids: [String], caller: AuthenticatedUser) async throws -> Stats {
        let marks = databaseQuestionMarks(count: ids.count)
        return try await database.read { db in
            var stats = Stats()
            for row in try Row.fetchAll(db, sql: """
                SELECT filter_id, COUNT(*) AS n, SUM(user_id = ?) AS mine FROM filter_like WHERE filter_id IN (\(marks)) GROUP BY filter_id
                """, arguments: StatementArguments([caller.userID]) + StatementArguments(ids)) {
                stats.likes[row["filter_id"]] = row["n"]
                if (row["mine"] as Int) > 0 { stats.liked.insert(row["filter_id"]) }
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT filter_id, COUNT(*) AS n, SUM(buyer_id = ?) AS mine FROM purchase_order
                WHERE paid_at IS NOT NULL AND filter_id IN (\(marks)) GROUP BY filter_id
                """, arguments: StatementArguments([caller.userID]) + StatementArguments(ids)) {
                stats.buyers[row["filter_id"]] = row["n"]
                if (row["mine"] as Int) > 0 { stats.bought.insert(row["filter_id"]) }
            }
            return stats
        }
    }

    private func summary(_ record: FilterRecord, people: [String: UserInfoFull], stats: Stats) -> FilterSummary {
        FilterSummary(
            filterID: record.id, category: record.category, title: record.title, description: record.description, files: record.fileList,
            creator: people.info(record.creatorID),
            isLiked: stats.liked.contains(record.id), likeCount: stats.likes[record.id] ?? 0, buyerCount: stats.buyers[record.id] ?? 0,
            createdAt: GlintDate.string(fromMilliseconds: record.createdAt), updatedAt: GlintDate.string(fromMilliseconds: record.updatedAt)
        )
    }

    static func apply(_ request: FilterRequest, to record: inout FilterRecord) throws {
        if let category = request.category?.trimmingCharacters(in: .whitespaces) {
            guard (1...50).contains(category.count) else { throw ServiceError.badRequest("category must be 1-50 characters") }
            record.category = category
        }
        if let title = request.title?.trimmingCharacters(in: .whitespacesAndNewlines) {
            guard (1...100).contains(title.count) else { throw ServiceError.badRequest("title must be 1-100 characters") }
            record.title = title
        }
        if let description = request.description {
            guard description.count <= 2000 else { throw ServiceError.badRequest("description must be at most 2000 characters") }
            record.description = description
        }
        if let price = request.price {
            guard (0...10_000_000).contains(price) else { throw ServiceError.badRequest("price must be 0 to 10,000,000") }
            record.price = price
        }
        if let files = request.files {
            guard (1...5).contains(files.count), files.allSatisfy({ $0.hasPrefix("/data/filters/") && $0.count <= 100 }) else {
                throw ServiceError.badRequest("files must be 1-5 paths from POST /v1/filters/files")
            }
            record.files = JSONText.encode(files)
        }
        if let values = request.filterValues {
            if let bad = values.outOfRange { throw ServiceError.badRequest("filter_values.\(bad) out of range") }
            record.filterValues = JSONText.encode(values)
        }
        if let metadata = request.photoMetadata {
            if let latitude = metadata.latitude, !(-90...90).contains(latitude) { throw ServiceError.badRequest("photo_metadata.latitude out of range") }
            if let longitude = metadata.longitude, !(-180...180).contains(longitude) { throw ServiceError.badRequest("photo_metadata.longitude out of range") }
            let text = JSONText.encode(metadata)
            guard text.utf8.count <= 4096 else { throw ServiceError.badRequest("photo_metadata too large") }
            record.photoMetadata = text
        }
    }
}
