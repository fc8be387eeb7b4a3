/// `Auth` of API.md §1: the answer of every login.
package struct AuthAnswer: Codable, Sendable, Equatable {
    package var userID: String
    package var email: String
    package var nick: String
    package var profileImage: String?
    package var accessToken: String
    package var refreshToken: String

    package init(userID: String, email: String, nick: String, profileImage: String?, accessToken: String, refreshToken: String) {
        self.userID = userID
        self.email = email
        self.nick = nick
        self.profileImage = profileImage
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email, nick, profileImage, accessToken, refreshToken
    }
}

/// The join answer: Auth plus `userID` (GLINT decodes that spelling).
package struct JoinAnswer: Codable, Sendable {
    package var auth: AuthAnswer

    package init(auth: AuthAnswer) {
        self.auth = auth
    }

    enum CodingKeys: String, CodingKey {
        case userID
    }

    package init(from decoder: any Decoder) throws {
        auth = try AuthAnswer(from: decoder)
        _ = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .userID)
    }

    package func encode(to encoder: any Encoder) throws {
        try auth.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(auth.userID, forKey: .userID)
    }
}

package struct TokenPair: Codable, Sendable, Equatable {
    package var accessToken: String
    package var refreshToken: String

    package init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

package struct MessageAnswer: Codable, Sendable, Equatable {
    package var message: String

    package init(message: String) {
        self.message = message
    }
}

/// `{}`
package struct EmptyAnswer: Codable, Sendable, Equatable {
    package init() {}
}

package struct WithdrawAnswer: Codable, Sendable, Equatable {
    package var userID: String
    package var email: String
    package var nick: String

    package init(userID: String, email: String, nick: String) {
        self.userID = userID
        self.email = email
        self.nick = nick
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email, nick
    }
}
