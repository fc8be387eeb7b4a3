import Contracts
import Moderation
import Storage

extension ContentCatalog {
    /// Posts, comments, filters, book stories and themes, as operators see them.
    static func market(_ stores: MarketStores, engine: StoreEngine) -> ContentCatalog {
        ContentCatalog(
            find: { kind, id, appID in
                switch kind {
                case .post:
                    try await stores.posts.post(id: id, appID: appID).map {
                        Found(authorID: $0.creatorID, preview: $0.title + "\n" + $0.content, files: $0.fileList, createdAt: $0.createdAt)
                    }
                case .story:
                    try await stores.stories.story(id: id, appID: appID).map {
                        Found(authorID: $0.userID, preview: $0.content ?? "", files: $0.files, createdAt: $0.createdAt)
                    }
                case .filter:
                    try await stores.filters.filter(id: id, appID: appID).map {
                        Found(authorID: $0.creatorID, preview: $0.title + "\n" + $0.description, files: $0.fileList, createdAt: $0.createdAt)
                    }
                case .theme:
                    try await stores.themes.theme(id: id, appID: appID).map {
                        Found(authorID: $0.userID, preview: $0.name + "\n" + ($0.description ?? ""), files: $0.files, createdAt: $0.createdAt)
                    }
                case .comment:
                    try await comment(id, appID: appID, in: stores.comments).map {
                        Found(authorID: $0.creatorID, preview: $0.content, createdAt: $0.createdAt)
                    }
                case .message:
                    nil
                }
            },
            authored: { kind, authorID, appID, limit in
                guard let rows = authoredRows[kind] else { return [] }
                return try await rows.newest(on: engine, authorID: authorID, appID: appID, limit: limit)
            })
    }

    /// Each kind's table, read on the (author, time) indexes every table has.
    private static let authoredRows: [ContentKind: AuthoredRows] = [
        .post: AuthoredRows(from: "post", authorColumn: "creator_id"),
        .comment: AuthoredRows(from: "comment", authorColumn: "creator_id"),
        .filter: AuthoredRows(from: "filter", authorColumn: "creator_id"),
        .story: AuthoredRows(from: "story", authorColumn: "user_id"),
        .theme: AuthoredRows(from: "theme", authorColumn: "user_id"),
    ]

    /// A comment of the app by id, whatever it is on (posts, filters, book stories).
    private static func comment(_ id: String, appID: String, in store: any CommentStore) async throws -> CommentRecord? {
        for target in [CommentTarget.post, .filter, .bookstory] {
            if let found = try await store.comment(id: id, target: target, appID: appID) { return found }
        }
        return nil
    }
}
