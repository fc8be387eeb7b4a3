/// API.md §9 **User**: `profileImage` is `""` when none; `statusMessage` and `blockedUsers` are
/// left out when not given (`blockedUsers` only on the caller's own profile).
package struct QuotehubUser: Codable, Sendable, Equatable {
    package var id: String
    package var nickname: String
    package var profileImage: String
    package var statusMessage: String?
    package var blockedUsers: [QuotehubUser]?

    package init(id: String, nickname: String, profileImage: String, statusMessage: String? = nil, blockedUsers: [QuotehubUser]? = nil) {
        (self.id, self.nickname, self.profileImage, self.statusMessage, self.blockedUsers) = (id, nickname, profileImage, statusMessage, blockedUsers)
    }

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case nickname, profileImage, statusMessage, blockedUsers
    }
}

/// `POST /auth/validate-token`: `{valid: true}`, or `{valid: false, accessToken, refreshToken}`
/// with a rotated pair when only the refresh token was good.
package struct TokenValidation: Codable, Sendable, Equatable {
    package var valid: Bool
    package var accessToken: String?
    package var refreshToken: String?

    package init(valid: Bool, accessToken: String? = nil, refreshToken: String? = nil) {
        (self.valid, self.accessToken, self.refreshToken) = (valid, accessToken, refreshToken)
    }
}

/// `POST /auth/apple/callback`: the authorization code the app got from Apple.
package struct AppleCodeRequest: Codable, Sendable {
    package var code: String

    package init(code: String) {
        self.code = code
    }
}

/// Its `data`.
package struct AppleSignInAnswer: Codable, Sendable, Equatable {
    package var user: QuotehubUser
    package var accessToken: String
    package var refreshToken: String
    package var isNewUser: Bool

    package init(user: QuotehubUser, accessToken: String, refreshToken: String, isNewUser: Bool) {
        (self.user, self.accessToken, self.refreshToken, self.isNewUser) = (user, accessToken, refreshToken, isNewUser)
    }
}

/// `POST /auth/revoke`.
package struct AccountRevocation: Codable, Sendable, Equatable {
    package var revoked: Bool

    package init(revoked: Bool) {
        self.revoked = revoked
    }
}
