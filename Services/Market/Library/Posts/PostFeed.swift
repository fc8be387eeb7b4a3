/// Which posts a cursor list shows (API.md §2 list endpoints).
enum PostFeed: Hashable {
    /// `GET /v1/posts`
    case all
    /// `GET /v1/posts/users/{user_id}`
    case user(String)
    /// `GET /v1/posts/likes/me` (kind 1) and `/likes-2/me` (kind 2)
    case liked(kind: Int)
    /// `GET /v1/posts/hashtags?hashTag=`
    case hashTag(String)
}
