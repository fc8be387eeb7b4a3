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
}
