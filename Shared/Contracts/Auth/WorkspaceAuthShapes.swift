/// API.md §8's user shapes, for apps of the `slp` profile (the workspace apps).

/// **User** (members, chat authors): `profileImage` is `null` when unset, never omitted.
package struct SlpUser: Codable, Sendable, Equatable {
    package var userID: String
    package var email: String
    package var nickname: String
    package var profileImage: String?

    package init(userID: String, email: String, nickname: String, profileImage: String?) {
        (self.userID, self.email, self.nickname, self.profileImage) = (userID, email, nickname, profileImage)
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email, nickname, profileImage
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userID, forKey: .userID)
        try container.encode(email, forKey: .email)
        try container.encode(nickname, forKey: .nickname)
        try container.encode(profileImage, forKey: .profileImage)
    }
}

/// What **Me** and **AuthOut** say of the user; `profileImage`, `phone` and `provider` are left
/// out when unset.
package struct SlpAccount: Codable, Sendable, Equatable {
    package var userID: String
    package var email: String
    package var nickname: String
    package var profileImage: String?
    package var phone: String?
    /// `email`, `apple` or `kakao`.
    package var provider: String?
    package var createdAt: String

    package init(userID: String, email: String, nickname: String, profileImage: String?, phone: String?, provider: String?, createdAt: String) {
        (self.userID, self.email, self.nickname, self.profileImage, self.phone) = (userID, email, nickname, profileImage, phone)
        (self.provider, self.createdAt) = (provider, createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email, nickname, profileImage, phone, provider, createdAt
    }
}

/// **Me**: the caller, with the coins in their wallet.
package typealias SlpMe = Merged<SlpAccount, SlpCoins>

package struct SlpCoins: Codable, Sendable, Equatable {
    package var sesacCoin: Int

    package init(sesacCoin: Int) {
        self.sesacCoin = sesacCoin
    }
}

/// **AuthOut**: a signed-in user with the session's tokens nested under `token`.
package typealias SlpAuthOut = Merged<SlpAccount, SlpSession>

package struct SlpSession: Codable, Sendable, Equatable {
    package struct Token: Codable, Sendable, Equatable {
        package var accessToken: String
        package var refreshToken: String

        package init(accessToken: String, refreshToken: String) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }
    }

    package var token: Token

    package init(token: Token) {
        self.token = token
    }
}

/// An access token alone: `GET /v1/auth/refresh` of `slp` apps and `POST /auth/renew-token` of
/// quotehub apps, whose refresh tokens are not rotated.
package struct SlpAccessToken: Codable, Sendable, Equatable {
    package var accessToken: String

    package init(accessToken: String) {
        self.accessToken = accessToken
    }
}

/// `POST /v1/users/join` of §8.
package struct SlpJoinRequest: Codable, Sendable {
    package var email: String
    package var password: String
    package var nickname: String
    package var phone: String?
    package var deviceToken: String?

    package init(email: String, password: String, nickname: String, phone: String? = nil, deviceToken: String? = nil) {
        (self.email, self.password, self.nickname, self.phone, self.deviceToken) = (email, password, nickname, phone, deviceToken)
    }
}

/// `POST /v1/users/login/apple` of §8.
package struct SlpAppleLoginRequest: Codable, Sendable {
    package var idToken: String
    package var nickname: String?
    package var deviceToken: String?

    package init(idToken: String, nickname: String? = nil, deviceToken: String? = nil) {
        (self.idToken, self.nickname, self.deviceToken) = (idToken, nickname, deviceToken)
    }
}

/// `PUT /v1/users/me` of §8: either key, or both.
package struct SlpMeUpdate: Codable, Sendable {
    package var nickname: String?
    package var phone: String?

    package init(nickname: String? = nil, phone: String? = nil) {
        (self.nickname, self.phone) = (nickname, phone)
    }
}
