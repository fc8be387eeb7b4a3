/// `GET /v1/filters/today-filter`
public struct TodayFilterAnswer: Codable, Sendable, Equatable {
    public var filterID: String
    public var title: String
    public var introduction: String
    public var description: String
    public var files: [String]
    public var createdAt: String
    public var updatedAt: String

    public init(filterID: String, title: String, introduction: String, description: String, files: [String], createdAt: String, updatedAt: String) {
        self.filterID = filterID
        self.title = title
        self.introduction = introduction
        self.description = description
        self.files = files
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case filterID = "filter_id"
        case title, introduction, description, files, createdAt, updatedAt
    }
}

/// `GET /v1/users/today-author`: every author string non-null (profileImage `""` when none).
public struct TodayAuthorAnswer: Codable, Sendable, Equatable {
    public struct Author: Codable, Sendable, Equatable {
        public var userID: String
        public var nick: String
        public var name: String
        public var introduction: String
        public var description: String
        public var profileImage: String
        public var hashTags: [String]

        public init(_ user: UserInfoFull) {
            userID = user.userID
            nick = user.nick
            name = user.name
            introduction = user.introduction
            description = user.description
            profileImage = user.profileImage ?? ""
            hashTags = user.hashTags
        }

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case nick, name, introduction, description, profileImage, hashTags
        }
    }

    public var author: Author
    public var filters: [FilterSummary]

    public init(author: Author, filters: [FilterSummary]) {
        self.author = author
        self.filters = filters
    }
}

/// One entry of `GET /v1/banners/main`.
public struct Banner: Codable, Sendable, Equatable {
    public struct Payload: Codable, Sendable, Equatable {
        public var type: String
        public var value: String
    }

    public var name: String
    public var imageUrl: String
    public var payload: Payload
}
