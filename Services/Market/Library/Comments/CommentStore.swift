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
    /// Every comment of the targets, oldest first.
    func comments(of target: CommentTarget, ids: [String]) async throws -> [CommentRecord]
}
