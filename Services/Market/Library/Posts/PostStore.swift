import Contracts

/// Posts, their likes, and what geo-svc must learn of their locations (written with the post).
protocol PostStore: Sendable {
    /// Each write stores `location` (when given) in the outbox in the same transaction.
    func insert(_ post: PostRecord, location: PostLocationEvent?) async throws
    func update(_ post: PostRecord, location: PostLocationEvent?) async throws
    /// The post, its likes and its comments.
    func delete(_ post: PostRecord, location: PostLocationEvent?) async throws

    func post(id: String, appID: String) async throws -> PostRecord?
    /// The post with its likes and comments, from one snapshot (a post's page).
    func postWithExtras(id: String, appID: String) async throws -> (record: PostRecord, extras: PostExtras)?
    /// Those of `ids` in `appID` that `viewer` may see (public or their own), in no order.
    func visiblePosts(ids: [String], appID: String, viewer: String) async throws -> [PostRecord]
    /// One page, newest first, with the likes and comments of its posts from the same snapshot
    /// but for those whose answers `kept` (asked with the page's ids) already has.
    func page(_ query: PostPageQuery, kept: @Sendable ([String]) -> [String: PostAnswer]) async throws -> PostPage
    /// Posts whose title contains `text`, newest first.
    func search(title text: String, appID: String, viewer: String, limit: Int) async throws -> [PostRecord]
    func extras(postIDs: [String]) async throws -> PostExtras
    /// Sets (or clears) `userID`'s like of `kind` (1: like, 2: like-2); idempotent.
    func setLike(postID: String, userID: String, kind: Int, on: Bool, at time: Int64) async throws
    /// A user's public post ids, newest first.
    func publicPostIDs(of userID: String, appID: String, limit: Int) async throws -> [String]
}

/// Which posts a page shows: the feed, newest first, without the hidden creators.
struct PostPageQuery: Hashable, Sendable {
    var feed: PostFeed
    var appID: String
    var viewer: String
    var categories: [String]
    var productID: String?
    var after: FeedCursor?
    var hidden: Set<String>
    /// Posts operators hid: gone for every user, their authors too.
    var takenDown: Set<String> = []
    var limit: Int
}

/// A page's posts (one more than asked when there are more), the kept answers of some of those
/// asked, and the extras of the others.
struct PostPage: Sendable {
    var posts: [(record: PostRecord, cursor: FeedCursor)]
    var kept: [String: PostAnswer]
    var extras: PostExtras
}

/// The likes and comments of some posts.
struct PostExtras: Sendable {
    struct Like: Sendable {
        var postID: String
        var userID: String
        var kind: Int
    }

    var likes: [Like] = []
    var comments: [CommentRecord] = []
}
