/// `Post` of API.md §2. Optional strings are `""`, lists are always present.
public struct PostAnswer: Codable, Sendable, Equatable {
    public var postID: String
    public var productID: String?
    public var category: String
    public var title: String
    public var price: Int
    public var content: String
    public var content1: String
    public var content2: String
    public var content3: String
    public var content4: String
    public var content5: String
    public var createdAt: String
    public var updatedAt: String
    public var creator: UserInfo
    public var files: [String]
    public var likes: [String]
    public var likes2: [String]
    public var buyers: [String]
    public var hashTags: [String]
    public var comments: [CommentAnswer]
    public var geolocation: Geolocation
    public var distance: Double?
    public var isPublic: Bool

    public init(
        postID: String, productID: String?, category: String, title: String, price: Int, content: String, contents: [String],
        createdAt: String, updatedAt: String, creator: UserInfo, files: [String], likes: [String], likes2: [String],
        buyers: [String], hashTags: [String], comments: [CommentAnswer], geolocation: Geolocation, distance: Double? = nil, isPublic: Bool
    ) {
        self.postID = postID
        self.productID = productID
        self.category = category
        self.title = title
        self.price = price
        self.content = content
        let padded = contents + Array(repeating: "", count: max(0, 5 - contents.count))
        (content1, content2, content3, content4, content5) = (padded[0], padded[1], padded[2], padded[3], padded[4])
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.creator = creator
        self.files = files
        self.likes = likes
        self.likes2 = likes2
        self.buyers = buyers
        self.hashTags = hashTags
        self.comments = comments
        self.geolocation = geolocation
        self.distance = distance
        self.isPublic = isPublic
    }

    enum CodingKeys: String, CodingKey {
        case postID = "post_id"
        case productID = "product_id"
        case category, title, price, content, content1, content2, content3, content4, content5
        case createdAt, updatedAt, creator, files, likes, likes2, buyers, hashTags, comments, geolocation, distance
        case isPublic = "is_public"
    }
}

public struct Geolocation: Codable, Sendable, Equatable {
    public var longitude: Double
    public var latitude: Double

    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }
}

/// `Comment` of API.md §2 (replies carry no further replies).
public struct CommentAnswer: Codable, Sendable, Equatable {
    public var commentID: String
    public var content: String
    public var createdAt: String
    public var creator: UserInfo
    public var replies: [CommentAnswer]?

    /// `replies` is nil for a reply (API.md: Reply has no replies key).
    public init(commentID: String, content: String, createdAt: String, creator: UserInfo, replies: [CommentAnswer]?) {
        self.commentID = commentID
        self.content = content
        self.createdAt = createdAt
        self.creator = creator
        self.replies = replies
    }

    enum CodingKeys: String, CodingKey {
        case commentID = "comment_id"
        case content, createdAt, creator, replies
    }
}

/// A cursor page: `{"data": [...], "next_cursor": "..."}`, `"0"` meaning no more.
public struct CursorPage<Element: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var data: [Element]
    public var nextCursor: String

    public init(data: [Element], nextCursor: String) {
        self.data = data
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
    }
}
