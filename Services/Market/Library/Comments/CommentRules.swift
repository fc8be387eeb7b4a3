import ServiceKit

/// Who changes a comment, whatever engine keeps it: its writer alone. Each store reads the
/// comment (locked for the change), asks, and writes.
enum CommentRules {
    /// The comment `userID` may change or delete; `found` nil: there is none.
    static func changeable(_ found: CommentRecord?, by userID: String) throws -> CommentRecord {
        guard let found else { throw StoreError.notFound("no such comment") }
        guard found.creatorID == userID else { throw StoreError.notPermitted("not your comment") }
        return found
    }

    /// A reply answers a top-level comment of the same target (one level of replies), checked by
    /// each store inside its insert from the parent it read there (nil: none among the app's
    /// comments of that kind of target).
    static func checkParent(_ parent: CommentRecord?, of reply: CommentRecord) throws {
        guard let parent, parent.targetID == reply.targetID, parent.parentID == nil else {
            throw StoreError.notFound("no such parent comment")
        }
    }
}
