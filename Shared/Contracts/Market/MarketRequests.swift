/// A post's fields: all of `POST /v1/posts` (where category, title and content are required)
/// and `PUT /v1/posts/{id}` (where each is optional).
public struct PostFields: Codable, Sendable {
    public var category: String?
    public var title: String?
    public var price: Int?
    public var content: String?
    public var content1: String?
    public var content2: String?
    public var content3: String?
    public var content4: String?
    public var content5: String?
    public var files: [String]?
    public var longitude: Double?
    public var latitude: Double?
    public var isPublic: Bool?

    public init(
        category: String? = nil, title: String? = nil, price: Int? = nil, content: String? = nil, files: [String]? = nil,
        longitude: Double? = nil, latitude: Double? = nil, isPublic: Bool? = nil
    ) {
        self.category = category
        self.title = title
        self.price = price
        self.content = content
        self.files = files
        self.longitude = longitude
        self.latitude = latitude
        self.isPublic = isPublic
    }

    enum CodingKeys: String, CodingKey {
        case category, title, price, content, content1, content2, content3, content4, content5, files, longitude, latitude
        case isPublic = "is_public"
    }
}

public typealias PostCreateRequest = PostFields
public typealias PostUpdateRequest = PostFields

/// `{like_status}`: the desired state in the request, the resulting state in the answer.
public struct LikeStatus: Codable, Sendable, Equatable {
    public var likeStatus: Bool

    public init(likeStatus: Bool) {
        self.likeStatus = likeStatus
    }

    enum CodingKeys: String, CodingKey {
        case likeStatus = "like_status"
    }
}

public struct CommentRequest: Codable, Sendable {
    public var content: String
    public var parentCommentID: String?

    public init(content: String, parentCommentID: String? = nil) {
        self.content = content
        self.parentCommentID = parentCommentID
    }

    enum CodingKeys: String, CodingKey {
        case content
        case parentCommentID = "parent_comment_id"
    }
}

/// `{"files": ["/data/<area>/<name>", …]}`
public struct FilesAnswer: Codable, Sendable, Equatable {
    public var files: [String]

    public init(files: [String]) {
        self.files = files
    }
}
