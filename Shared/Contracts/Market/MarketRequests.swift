/// A post's fields: all of `POST /v1/posts` (where category, title and content are required)
/// and `PUT /v1/posts/{id}` (where each is optional).
package struct PostFields: Codable, Sendable {
    package var category: String?
    package var title: String?
    package var price: Int?
    package var content: String?
    package var content1: String?
    package var content2: String?
    package var content3: String?
    package var content4: String?
    package var content5: String?
    package var files: [String]?
    package var longitude: Double?
    package var latitude: Double?
    package var isPublic: Bool?

    package init(
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

package typealias PostCreateRequest = PostFields
package typealias PostUpdateRequest = PostFields

/// `{like_status}`: the desired state in the request, the resulting state in the answer.
package struct LikeStatus: Codable, Sendable, Equatable {
    package var likeStatus: Bool

    package init(likeStatus: Bool) {
        self.likeStatus = likeStatus
    }

    enum CodingKeys: String, CodingKey {
        case likeStatus = "like_status"
    }
}

package struct CommentRequest: Codable, Sendable {
    package var content: String
    package var parentCommentID: String?

    package init(content: String, parentCommentID: String? = nil) {
        self.content = content
        self.parentCommentID = parentCommentID
    }

    enum CodingKeys: String, CodingKey {
        case content
        case parentCommentID = "parent_comment_id"
    }
}

/// `{"files": ["/data/<area>/<name>", …]}`
package struct FilesAnswer: Codable, Sendable, Equatable {
    package var files: [String]

    package init(files: [String]) {
        self.files = files
    }
}
