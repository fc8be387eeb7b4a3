import Contracts
import Foundation
import Moderation
import ServiceClients
import ServiceKit

/// Community posts (API.md §2): create, read, update, delete, likes, feeds and search. What a
/// caller may see: public posts and their own, of their app, without users they blocked and
/// without posts operators hid (for everyone, their authors too).
struct PostService: ItemService {
    let store: any PostStore
    let users: AuthClient
    let renderer: PostRenderer
    let cache: PostAnswerCache
    let moderation: ContentModeration
    /// Wakes the outbox relay after a write that recorded a location event.
    /// Told of a post's new place after its commit, before the answer (the map the user opens
    /// next shows it): delivered ahead of the outbox, which holds it too.
    let locationsChanged: @Sendable (PostLocationEvent) async -> Void

    func create(_ caller: AuthenticatedUser, _ request: PostFields, productID: String?, requestID: String) async throws -> PostAnswer {
        if let productID, productID.count > 100 { throw ServiceError.badRequest("ProductId too long") }
        guard request.category != nil, request.title != nil, request.content != nil else {
            throw ServiceError.badRequest("category, title and content are required")
        }
        let now = GlintDate.nowMilliseconds()
        var record = PostRecord(
            id: ObjectID.generate(), appID: caller.appID, creatorID: caller.userID, productID: productID, category: "",
            title: "", price: 0, content: "", createdAt: now, updatedAt: now
        )
        var fields = request
        (fields.price, fields.files, fields.isPublic) = (request.price ?? 0, request.files ?? [], request.isPublic ?? true)
        try PostRules.apply(fields, to: &record)
        try await write(record, location: PostLocationEvent(from: nil, to: record), store.insert)
        return try await render([record], caller: caller, requestID: requestID)[0]
    }

    func read(_ id: String, caller: AuthenticatedUser, requestID: String) async throws -> EncodedJSON<PostAnswer> {
        try Self.checkID(id)
        try await checkNotTakenDown(id, appID: caller.appID)
        let generation = cache.generation
        if let kept = cache.answers([id], appID: caller.appID, hiding: [], generation: generation)[id] {
            guard kept.isPublic || kept.creator.userID == caller.userID else { throw ServiceError.notFound("no such post") }
            let hidden = try await users.blocked(caller.userID, caller.appID, requestID)
            if kept.commentCreators.isDisjoint(with: hidden) {
                // As last sent while its users are as shown; else with them as they are now.
                if let item = cache.item(id, appID: caller.appID, generation: generation),
                    item.shown.same(as: try await users.users(item.shown.people.map(\.userID), caller.appID, requestID))
                {
                    return item.json
                }
                let answer = try await renderer.withCurrentUsers([kept], appID: caller.appID, requestID: requestID)[0]
                let json = EncodedJSON(answer)
                cache.store(PostAnswerCache.Item(appID: caller.appID, json: json, shown: .init([answer])), for: id, generation: generation)
                return json
            }
        }
        let found = try await store.postWithExtras(id: id, appID: caller.appID)
        let record = try Self.visible(found?.record, to: caller)
        let hidden = try await users.blocked(caller.userID, caller.appID, requestID)
        return EncodedJSON(
            try await answers(
                [record], kept: [:], extras: found?.extras ?? PostExtras(), hidden: hidden, generation: generation, caller: caller,
                requestID: requestID
            )[0])
    }

    /// Posts by id in the given order, as the caller's feeds would show them; others are left out.
    func posts(_ ids: [String], caller: AuthenticatedUser, requestID: String) async throws -> [PostAnswer] {
        let wanted = Array(Set(ids.filter(ObjectID.isValid)))
        guard !wanted.isEmpty else { return [] }
        let hidden = try await users.blocked(caller.userID, caller.appID, requestID)
        let found = try await store.visiblePosts(ids: wanted, appID: caller.appID, viewer: caller.userID)
        let takenDown = try await moderation.hiddenIDs(.post, appID: caller.appID)
        let byID = Dictionary(
            uniqueKeysWithValues: found.filter { !hidden.contains($0.creatorID) && !takenDown.contains($0.id) }.map { ($0.id, $0) })
        var seen = Set<String>()
        let ordered = ids.compactMap { id in seen.insert(id).inserted ? byID[id] : nil }
        return try await render(ordered, caller: caller, hidden: hidden, requestID: requestID)
    }

    /// Owner only: others get 445 (after 404 for what they cannot see).
    func update(_ id: String, caller: AuthenticatedUser, _ update: PostFields, requestID: String) async throws -> EncodedJSON<PostAnswer> {
        let before = try await owned(id, caller: caller)
        var record = before
        try PostRules.apply(update, to: &record)
        // Strictly after the last change, also within its millisecond: the version geo-svc keeps.
        record.updatedAt = max(GlintDate.nowMilliseconds(), before.updatedAt + 1)
        try await write(record, location: PostLocationEvent(from: before, to: record), store.update)
        return EncodedJSON(try await render([record], caller: caller, requestID: requestID)[0])
    }

    func delete(_ id: String, caller: AuthenticatedUser) async throws {
        let record = try await owned(id, caller: caller)
        try await write(record, location: PostLocationEvent(from: record, to: nil), store.delete)
    }

    /// Sets the caller's like (kind 1) or like-2 (kind 2) to the wanted state; idempotent.
    func like(_ id: String, kind: Int, caller: AuthenticatedUser, status: Bool) async throws -> LikeStatus {
        let record = try await visible(id, caller: caller)
        try await store.setLike(postID: record.id, userID: caller.userID, kind: kind, on: status, at: GlintDate.nowMilliseconds())
        return LikeStatus(likeStatus: status)
    }

    /// Newest first, optionally only some categories or one product.
    func feed(
        _ feed: PostFeed, caller: AuthenticatedUser, categories: [String], productID: String?, after cursor: FeedCursor?, limit: Int,
        requestID: String
    ) async throws -> EncodedJSON<CursorPage<PostAnswer>> {
        let hidden = try await users.blocked(caller.userID, caller.appID, requestID)
        let generation = cache.generation
        let query = PostPageQuery(
            feed: feed, appID: caller.appID, viewer: caller.userID, categories: categories, productID: productID, after: cursor, hidden: hidden,
            takenDown: try await moderation.hiddenIDs(.post, appID: caller.appID), limit: limit
        )
        // The same page again (an app's first screen, pulled to refresh) from memory: as it was
        // sent while its users are unchanged, else with them as they are now when all of its
        // posts are kept too.
        if let page = cache.page(query, generation: generation) {
            let people = try await users.users(page.shown.people.map(\.userID), caller.appID, requestID)
            if page.shown.same(as: people) { return page.json }
            let kept = cache.answers(page.postIDs, appID: caller.appID, hiding: hidden, generation: generation)
            let ordered = page.postIDs.compactMap { kept[$0] }
            if ordered.count == page.postIDs.count {
                let answers = try await renderer.withCurrentUsers(ordered, appID: caller.appID, requestID: requestID)
                return keep(CursorPage(data: answers, nextCursor: page.nextCursor), for: query, generation: generation)
            }
        }
        let page = try await store.page(query) { [cache] ids in cache.answers(ids, appID: caller.appID, hiding: hidden, generation: generation) }
        let shown = page.posts.prefix(limit)
        let next = page.posts.count > limit ? shown.last?.cursor.text ?? FeedCursor.end : FeedCursor.end
        let answers = try await answers(
            shown.map(\.record), kept: page.kept, extras: page.extras, hidden: hidden, generation: generation, caller: caller, requestID: requestID
        )
        return keep(CursorPage(data: answers, nextCursor: next), for: query, generation: generation)
    }

    /// The page written once, kept with what it showed for the same query's next request.
    private func keep(_ page: CursorPage<PostAnswer>, for query: PostPageQuery, generation: UInt64) -> EncodedJSON<CursorPage<PostAnswer>> {
        let json = EncodedJSON(page)
        cache.store(PostAnswerCache.Page(page, json: json), for: query, generation: generation)
        return json
    }

    /// `GET /v1/posts/search?title=`: titles containing the words, newest first, 50 at most.
    func search(title: String?, caller: AuthenticatedUser, requestID: String) async throws -> DataList<PostAnswer> {
        let query = try FieldRule.text(title ?? "", "title", 1...100, trimming: .whitespaces)!
        let hidden = try await users.blocked(caller.userID, caller.appID, requestID)
        let takenDown = try await moderation.hiddenIDs(.post, appID: caller.appID)
        let records = try await store.search(title: query, appID: caller.appID, viewer: caller.userID, limit: 50).filter {
            !hidden.contains($0.creatorID) && !takenDown.contains($0.id)
        }
        return DataList(data: try await render(records, caller: caller, hidden: hidden, requestID: requestID))
    }

    /// Ids of a user's public posts, newest first (profiles list them).
    func postIDs(of userID: String, appID: String) async throws -> [String] {
        let takenDown = try await moderation.hiddenIDs(.post, appID: appID)
        return try await store.publicPostIDs(of: userID, appID: appID, limit: 1000).filter { !takenDown.contains($0) }
    }

    /// The post if the caller may see it: 400 for a malformed id, 404 otherwise.
    func visible(_ id: String, caller: AuthenticatedUser) async throws -> PostRecord {
        try Self.checkID(id)
        try await checkNotTakenDown(id, appID: caller.appID)
        return try Self.visible(try await store.post(id: id, appID: caller.appID), to: caller)
    }

    /// A post operators hid is as absent for everyone (404), its author too.
    private func checkNotTakenDown(_ id: String, appID: String) async throws {
        if try await moderation.isHidden(.post, id: id, appID: appID) { throw ServiceError.notFound("no such post") }
    }

    private static func checkID(_ id: String) throws {
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid post id") }
    }

    /// Public posts and the caller's own; anything else is as absent (404).
    private static func visible(_ record: PostRecord?, to caller: AuthenticatedUser) throws -> PostRecord {
        guard let record, record.isPublic || record.creatorID == caller.userID else { throw ServiceError.notFound("no such post") }
        return record
    }

    private func owned(_ id: String, caller: AuthenticatedUser) async throws -> PostRecord {
        let record = try await visible(id, caller: caller)
        guard record.creatorID == caller.userID else { throw ServiceError(.notPermitted, "not your post") }
        return record
    }

    private func write(
        _ record: PostRecord, location: PostLocationEvent?, _ operation: (PostRecord, PostLocationEvent?) async throws -> Void
    ) async throws {
        try await operation(record, location)
        if let location { await locationsChanged(location) }
    }

    private func render(
        _ records: [PostRecord], caller: AuthenticatedUser, hidden: Set<String>? = nil, requestID: String
    ) async throws -> [PostAnswer] {
        guard !records.isEmpty else { return [] }
        let hidden = if let hidden { hidden } else { try await users.blocked(caller.userID, caller.appID, requestID) }
        let extras = try await visible(try await store.extras(postIDs: records.map(\.id)), appID: caller.appID)
        return try await renderer.posts(records, extras: extras, hiding: hidden, appID: caller.appID, requestID: requestID).answers
    }

    /// The extras without the comments operators hid (and their replies). Hiding one changes
    /// `hidden_content`, which the post cache's counter watches, so no answer kept before shows it.
    private func visible(_ extras: PostExtras, appID: String) async throws -> PostExtras {
        let hidden = try await moderation.hiddenIDs(.comment, appID: appID)
        guard !hidden.isEmpty else { return extras }
        var visible = extras
        visible.comments.removeAll { hidden.contains($0.id) || hidden.contains($0.parentID ?? "") }
        return visible
    }

    /// `records` (read after `generation` was read) as answers: `kept` ones with their current
    /// users, the others rendered from `extras` and kept for the next reader.
    private func answers(
        _ records: [PostRecord], kept: [String: PostAnswer], extras: PostExtras, hidden: Set<String>, generation: UInt64,
        caller: AuthenticatedUser, requestID: String
    ) async throws -> [PostAnswer] {
        let fresh = kept.isEmpty ? records : records.filter { kept[$0.id] == nil }
        let extras = try await visible(extras, appID: caller.appID)
        let rendered = try await renderer.posts(fresh, extras: extras, hiding: hidden, appID: caller.appID, requestID: requestID)
        cache.store(rendered.complete, appID: caller.appID, generation: generation)
        guard !kept.isEmpty else { return rendered.answers }
        var byID = Dictionary(uniqueKeysWithValues: rendered.answers.map { ($0.postID, $0) })
        for answer in try await renderer.withCurrentUsers(Array(kept.values), appID: caller.appID, requestID: requestID) {
            byID[answer.postID] = answer
        }
        return records.compactMap { byID[$0.id] }
    }
}
