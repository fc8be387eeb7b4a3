/// `GET /v1/filters/today-filter`
package struct TodayFilterAnswer: Codable, Sendable, Equatable {
    package var filterID: String
    package var title: String
    package var introduction: String
    package var description: String
    package var files: [String]
    package var createdAt: String
    package var updatedAt: String

    package init(filterID: String, title: String, introduction: String, description: String, files: [String], createdAt: String, updatedAt: String) {
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
package struct TodayAuthorAnswer: Codable, Sendable, Equatable {
    package struct Author: Codable, Sendable, Equatable {
        package var userID: String
        package var nick: String
        package var name: String
        package var introduction: String
        package var description: String
        package var profileImage: String
        package var hashTags: [String]

        package init(_ user: UserInfoFull) {
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

    package var author: Author
    package var filters: [FilterSummary]

    package init(author: Author, filters: [FilterSummary]) {
        self.author = author
        self.filters = filters
    }
}

/// One entry of `GET /v1/banners/main`.
package struct Banner: Codable, Sendable, Equatable {
    package struct Payload: Codable, Sendable, Equatable {
        package var type: String
        package var value: String
    }

    package var name: String
    package var imageUrl: String
    package var payload: Payload
}
