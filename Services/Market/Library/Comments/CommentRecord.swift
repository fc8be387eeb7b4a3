/// A comment or a reply (one level) on a post, a filter or a book story.
struct CommentRecord: Sendable, Equatable {
    var id: String
    var parentID: String?
    var targetID: String
    var creatorID: String
    var content: String
    var createdAt: Int64
    var updatedAt: Int64
}

/// What comments hang off.
enum CommentTarget: String, Sendable {
    case post, filter, bookstory
}
