/// API.md §9 **Comment**: `replies` (the first three, oldest first) only on list answers.
package struct QuotehubComment: Codable, Sendable, Equatable {
    package var id: String
    package var userId: QuotehubUser
    package var bookStoryId: String
    package var content: String
    package var parentCommentId: String?
    package var createdAt: String
    package var updatedAt: String
    package var replies: [QuotehubComment]?

    package init(
        id: String, userId: QuotehubUser, bookStoryId: String, content: String, parentCommentId: String?, createdAt: String, updatedAt: String,
        replies: [QuotehubComment]? = nil
    ) {
        (self.id, self.userId, self.bookStoryId, self.content, self.parentCommentId) = (id, userId, bookStoryId, content, parentCommentId)
        (self.createdAt, self.updatedAt, self.replies) = (createdAt, updatedAt, replies)
    }

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case userId, bookStoryId, content, parentCommentId, createdAt, updatedAt, replies
    }
}

/// `POST /bookstoriesComments` (and `{content}` alone for `PUT /bookstoriesComments/{id}`).
package struct StoryCommentFields: Codable, Sendable, Equatable {
    package var bookStoryId: String?
    package var content: String?
    package var parentCommentId: String?

    package init(bookStoryId: String? = nil, content: String? = nil, parentCommentId: String? = nil) {
        (self.bookStoryId, self.content, self.parentCommentId) = (bookStoryId, content, parentCommentId)
    }
}
