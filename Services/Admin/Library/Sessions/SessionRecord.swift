import GRDB

/// An operator's session as stored (`admin_session`): the SHA-256 of the cookie's token (the
/// token itself is never kept), the CSRF token, where it signed in from, and when it was last used.
struct SessionRecord: Codable, Sendable, Equatable, FetchableRecord {
    var tokenHash, operatorID, csrfToken, address: String
    var createdAt, lastSeenAt: Int64

    enum CodingKeys: String, CodingKey {
        case address
        case tokenHash = "token_hash"
        case operatorID = "operator_id"
        case csrfToken = "csrf_token"
        case createdAt = "created_at"
        case lastSeenAt = "last_seen_at"
    }
}
