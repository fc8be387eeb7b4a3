/// A user as shown beside content (`creator`, `sender`, `participants[]`, follow lists).
public struct UserInfo: Codable, Sendable, Equatable {
    public var userID: String
    public var nick: String
    public var profileImage: String?

    public init(userID: String, nick: String, profileImage: String?) {
        self.userID = userID
        self.nick = nick
        self.profileImage = profileImage
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case nick, profileImage
    }
}

/// UserInfo "returned in full" (API.md §1): plus name, introduction, description, hashTags.
public struct UserInfoFull: Codable, Sendable, Equatable {
    public var userID: String
    public var nick: String
    public var profileImage: String?
    public var name: String
    public var introduction: String
    public var description: String
    public var hashTags: [String]

    public init(userID: String, nick: String, profileImage: String?, name: String, introduction: String, description: String, hashTags: [String]) {
        self.userID = userID
        self.nick = nick
        self.profileImage = profileImage
        self.name = name
        self.introduction = introduction
        self.description = description
        self.hashTags = hashTags
    }

    public var summary: UserInfo { UserInfo(userID: userID, nick: nick, profileImage: profileImage) }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case nick, profileImage, name, introduction, description, hashTags
    }
}
