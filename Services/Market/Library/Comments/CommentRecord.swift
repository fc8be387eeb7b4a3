/// A comment or a reply (one level) on a post or a filter.
struct CommentRecord: Sendable, Equatable {
    var id: String
    var parentID: String?
    var targetID: String
    var creatorID: String
    var content: String
    var createdAt: Int64
}

/// What comments hang off.
enum CommentTarget: String, Sendable {
    case post, filter
}
