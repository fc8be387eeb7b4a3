import Contracts
import Foundation
import Moderation
import ServiceClients
import ServiceKit

/// The filter marketplace (API.md §2): filters, their likes and lists. Any caller of the app may
/// see any filter but those operators hid; only its creator may change it.
struct FilterService: ItemService {
    let store: any FilterStore
    let users: AuthClient
    let moderation: ContentModeration

    func create(_ caller: AuthenticatedUser, _ request: FilterRequest, requestID: String) async throws -> FilterDetail {
        guard request.category != nil, request.title != nil, request.price != nil, request.description != nil, request.files != nil,
            request.filterValues != nil
        else { throw ServiceError.badRequest("category, title, price, description, files and filter_values are required") }
        let now = GlintDate.nowMilliseconds()
        var record = FilterRecord(
            id: ObjectID.generate(), appID: caller.appID, creatorID: caller.userID, category: "", title: "",
            description: "", price: 0, files: "[]", filterValues: "{}", createdAt: now, updatedAt: now)
        try FilterRules.apply(request, to: &record)
        try await store.insert(record)
        return try await read(record.id, caller: caller, requestID: requestID)
    }

    func read(_ id: String, caller: AuthenticatedUser, requestID: String) async throws -> FilterDetail {
        // One read for the filter, its comments and its stats: each read of its own was a hop to
        // GRDB's queues and back, and those hops cost more than the queries.
        try await checkShown(id, caller: caller)
        guard let (record, allComments, stats) = try await store.detail(id: id, appID: caller.appID, viewer: caller.userID) else {
            throw ServiceError.notFound("no such filter")
        }
        let hidden = try await users.blocked(caller.userID, caller.appID, requestID)
        let takenDown = try await moderation.hiddenIDs(.comment, appID: caller.appID)
        let commentRecords = allComments.filter {
            !hidden.contains($0.creatorID) && !takenDown.contains($0.id) && !takenDown.contains($0.parentID ?? "")
        }
        let people = try await users.users(Array(Set([record.creatorID] + commentRecords.map(\.creatorID))), caller.appID, requestID)
        return FilterDetail(
            summary: FilterRenderer.summary(record, people: people, stats: stats), price: record.price, photoMetadata: record.metadata,
            filterValues: record.values, isDownloaded: record.creatorID == caller.userID || stats.bought.contains(record.id),
            comments: CommentRenderer.tree(commentRecords, users: people)[record.id] ?? []
        )
    }

    func update(_ id: String, caller: AuthenticatedUser, _ request: FilterRequest, requestID: String) async throws -> FilterDetail {
        var record = try await owned(id, caller: caller)
        try FilterRules.apply(request, to: &record)
        record.updatedAt = GlintDate.nowMilliseconds()
        try await store.update(record)
        return try await read(id, caller: caller, requestID: requestID)
    }

    /// A filter someone bought stays (its buyers keep it); otherwise the owner may delete it.
    func delete(_ id: String, caller: AuthenticatedUser) async throws {
        try await store.delete(id: try await owned(id, caller: caller).id)
    }

    func like(_ id: String, caller: AuthenticatedUser, status: Bool) async throws -> LikeStatus {
        let record = try await find(id, caller: caller)
        try await store.setLike(filterID: record.id, userID: caller.userID, on: status, at: GlintDate.nowMilliseconds())
        return LikeStatus(likeStatus: status)
    }

    /// Cursor lists. `latest` pages by creation; `likes` and `purchase` are rankings paged by
    /// position (cursor `o<offset>`).
    func list(
        _ scope: FilterPageQuery.Scope, order: FilterPageQuery.Order, category: String?, next: String?, limit: Int, caller: AuthenticatedUser,
        requestID: String
    ) async throws -> CursorPage<FilterSummary> {
        var after: FeedCursor?
        var offset = 0
        if order == .latest {
            after = try FeedCursor.parse(next)
        } else if let next, !next.isEmpty, next != FeedCursor.end {
            guard next.hasPrefix("o"), let value = Int(next.dropFirst()), value >= 0 else { throw ServiceError.badRequest("invalid next cursor") }
            offset = value
        }
        let hidden = try await users.blocked(caller.userID, caller.appID, requestID)
        let found = try await store.page(
            FilterPageQuery(
                scope: scope, order: order, appID: caller.appID, viewer: caller.userID, category: category, hidden: hidden,
                takenDown: try await moderation.hiddenIDs(.filter, appID: caller.appID), after: after, offset: offset, limit: limit
            ))
        let page = found.rows.prefix(limit)
        var nextCursor = FeedCursor.end
        if found.rows.count > limit, let last = page.last {
            nextCursor = order == .latest ? last.cursor.text : "o\(offset + limit)"
        }
        return CursorPage(
            data: try await summaries(page.map(\.record), stats: found.stats, caller: caller, requestID: requestID), nextCursor: nextCursor)
    }

    /// The filter (any caller of its app may see it): 400 for a malformed id, 404 otherwise.
    func find(_ id: String, caller: AuthenticatedUser) async throws -> FilterRecord {
        try await checkShown(id, caller: caller)
        guard let record = try await store.filter(id: id, appID: caller.appID) else { throw ServiceError.notFound("no such filter") }
        return record
    }

    /// 400 for a malformed id, 404 for a filter operators hid.
    private func checkShown(_ id: String, caller: AuthenticatedUser) async throws {
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid filter id") }
        guard try await !moderation.isHidden(.filter, id: id, appID: caller.appID) else { throw ServiceError.notFound("no such filter") }
    }

    /// Filters of the app by id in the given order (deleted ones skipped).
    func records(_ ids: [String], appID: String) async throws -> [FilterRecord] {
        let takenDown = try await moderation.hiddenIDs(.filter, appID: appID)
        let byID = Dictionary(
            uniqueKeysWithValues: try await store.filters(ids: ids, appID: appID).filter { !takenDown.contains($0.id) }.map { ($0.id, $0) })
        return ids.compactMap { byID[$0] }
    }

    func summaries(_ records: [FilterRecord], caller: AuthenticatedUser, requestID: String) async throws -> [FilterSummary] {
        guard !records.isEmpty else { return [] }
        let stats = try await store.stats(ids: records.map(\.id), viewer: caller.userID)
        return try await summaries(records, stats: stats, caller: caller, requestID: requestID)
    }

    /// With their stats read already (a list's page reads them with its rows).
    private func summaries(
        _ records: [FilterRecord], stats: FilterStats, caller: AuthenticatedUser, requestID: String
    ) async throws -> [FilterSummary] {
        guard !records.isEmpty else { return [] }
        let people = try await users.users(Array(Set(records.map(\.creatorID))), caller.appID, requestID)
        return records.map { FilterRenderer.summary($0, people: people, stats: stats) }
    }

    private func owned(_ id: String, caller: AuthenticatedUser) async throws -> FilterRecord {
        let record = try await find(id, caller: caller)
        guard record.creatorID == caller.userID else { throw ServiceError(.notPermitted, "not your filter") }
        return record
    }
}
