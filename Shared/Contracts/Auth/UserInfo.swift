/// A user as shown beside content (`creator`, `sender`, `participants[]`, follow lists).
package struct UserInfo: Codable, Sendable, Equatable {
    package var userID: String
    package var nick: String
    package var profileImage: String?

    package init(userID: String, nick: String, profileImage: String?) {
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
package struct UserInfoFull: Codable, Sendable, Equatable {
    package var userID: String
    package var nick: String
    package var profileImage: String?
    package var name: String
    package var introduction: String
    package var description: String
    package var hashTags: [String]

    package init(userID: String, nick: String, profileImage: String?, name: String, introduction: String, description: String, hashTags: [String]) {
        self.userID = userID
        self.nick = nick
        self.profileImage = profileImage
        self.name = name
        self.introduction = introduction
        self.description = description
        self.hashTags = hashTags
    }

    package var summary: UserInfo { UserInfo(userID: userID, nick: nick, profileImage: profileImage) }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case nick, profileImage, name, introduction, description, hashTags
    }
}
