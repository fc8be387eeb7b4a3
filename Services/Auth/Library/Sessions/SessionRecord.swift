/// A login: the family of refresh tokens that rotate from it. Revoking it (logout, withdraw,
/// refresh-token reuse) kills every token of the family.
struct SessionRecord: Codable, Equatable, Sendable {
    var id, appID, userID: String
    var deviceToken: String?
    var createdAt: Int64
    var revokedAt: Int64?
    var revokeReason: String?
    /// The generation of the family's current refresh token (0: only legacy tokens so far), its
    /// expiry, and when the one before it was exchanged for it.
    var refreshGeneration: Int64
    var refreshExpiresAt: Int64
    var refreshRotatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id
        case appID = "app_id"
        case userID = "user_id"
        case deviceToken = "device_token"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
        case revokeReason = "revoke_reason"
        case refreshGeneration = "refresh_generation"
        case refreshExpiresAt = "refresh_expires_at"
        case refreshRotatedAt = "refresh_rotated_at"
    }
}

/// A legacy refresh token (`RefreshTokenCodec`), stored as the SHA-256 of its value; `rotatedAt` is set once it was exchanged.
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
