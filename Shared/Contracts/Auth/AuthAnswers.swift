/// `Auth` of API.md §1: the answer of every login.
public struct AuthAnswer: Codable, Sendable, Equatable {
    public var userID: String
    public var email: String
    public var nick: String
    public var profileImage: String?
    public var accessToken: String
    public var refreshToken: String

    public init(userID: String, email: String, nick: String, profileImage: String?, accessToken: String, refreshToken: String) {
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
public struct JoinAnswer: Encodable, Sendable {
    public var auth: AuthAnswer

    public init(auth: AuthAnswer) {
        self.auth = auth
    }

    enum CodingKeys: String, CodingKey {
        case userID
    }

    public func encode(to encoder: any Encoder) throws {
        try auth.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(auth.userID, forKey: .userID)
    }
}

public struct TokenPair: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String

    public init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

public struct MessageAnswer: Codable, Sendable, Equatable {
    public var message: String

    public init(message: String) {
        self.message = message
    }
}

/// `{}`
public struct EmptyAnswer: Codable, Sendable, Equatable {
    public init() {}
}

public struct WithdrawAnswer: Codable, Sendable, Equatable {
    public var userID: String
    public var email: String
    public var nick: String

    public init(userID: String, email: String, nick: String) {
        self.userID = userID
        self.email = email
        self.nick = nick
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email, nick
    }
}
