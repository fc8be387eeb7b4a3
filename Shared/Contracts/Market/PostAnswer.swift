/// `Post` of API.md §2. Optional strings are `""`, lists are always present.
package struct PostAnswer: Codable, Sendable, Equatable {
    package var postID: String
    package var productID: String?
    package var category: String
    package var title: String
    package var price: Int
    package var content: String
    package var content1: String
    package var content2: String
    package var content3: String
    package var content4: String
    package var content5: String
    package var createdAt: String
    package var updatedAt: String
    package var creator: UserInfo
    package var files: [String]
    package var likes: [String]
    package var likes2: [String]
    package var buyers: [String]
    package var hashTags: [String]
    package var comments: [CommentAnswer]
    package var geolocation: Geolocation
    package var distance: Double?
    package var isPublic: Bool

    package init(
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

package struct Geolocation: Codable, Sendable, Equatable {
    package var longitude: Double
    package var latitude: Double

    package init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }
}

/// `Comment` of API.md §2 (replies carry no further replies).
package struct CommentAnswer: Codable, Sendable, Equatable {
    package var commentID: String
    package var content: String
    package var createdAt: String
    package var creator: UserInfo
    package var replies: [CommentAnswer]?

    /// `replies` is nil for a reply (API.md: Reply has no replies key).
    package init(commentID: String, content: String, createdAt: String, creator: UserInfo, replies: [CommentAnswer]?) {
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
package struct CursorPage<Element: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    package var data: [Element]
    package var nextCursor: String

    package init(data: [Element], nextCursor: String) {
        self.data = data
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
    }
}
