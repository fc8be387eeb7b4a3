/// Comments and their replies, per target.
protocol CommentStore: Sendable {
    /// Stores a comment of `appID`; a reply must hang off a top-level comment of the same target
    /// (`StoreError.notFound` otherwise).
    func insert(_ comment: CommentRecord, target: CommentTarget, appID: String) async throws
    /// Replaces the content of `userID`'s own comment, or deletes it when `content` is nil;
    /// answers the changed comment. `notFound` for no such comment, `notPermitted` for another's.
    func change(
        _ commentID: String, target: CommentTarget, targetID: String, appID: String, by userID: String, content: String?, at time: Int64
    ) async throws -> CommentRecord?
    func comment(id: String, target: CommentTarget, appID: String) async throws -> CommentRecord?
    /// A page of a target's top-level comments, oldest first, with the first `replies` replies
    /// of each and how many top-level comments there are; the hidden users' left out.
    func threads(of target: CommentTarget, id: String, hiding hidden: HiddenFilter, page: PageRequest, replies: Int) async throws -> CommentThreads
    /// A target's comments, replies included, as the reader sees them.
    func count(of target: CommentTarget, id: String, hiding hidden: HiddenFilter) async throws -> Int
}

/// A page of top-level comments and their first replies (by parent id).
struct CommentThreads: Sendable {
    var roots: [CommentRecord]
    var total: Int
    var replies: [String: [CommentRecord]]
}
