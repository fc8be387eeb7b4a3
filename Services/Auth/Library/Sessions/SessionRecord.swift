/// A login: the family of refresh tokens that rotate from it. Revoking it (logout, withdraw,
/// refresh-token reuse) kills every token of the family.
struct SessionRecord: Codable, Equatable, Sendable {
    var id, appID, userID: String
    var deviceToken: String?
    var createdAt: Int64
    var revokedAt: Int64?
    var revokeReason: String?

    enum CodingKeys: String, CodingKey {
        case id
        case appID = "app_id"
        case userID = "user_id"
        case deviceToken = "device_token"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
        case revokeReason = "revoke_reason"
    }

}

/// A refresh token, stored as the SHA-256 of its value; `rotatedAt` is set once it was exchanged.
struct RefreshTokenRecord: Codable, Equatable, Sendable {
    var hash, sessionID: String
    var createdAt, expiresAt: Int64
    var rotatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case hash
        case sessionID = "session_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case rotatedAt = "rotated_at"
    }
}
