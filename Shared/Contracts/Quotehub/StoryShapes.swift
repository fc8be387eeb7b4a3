/// One quote of a story: the sentence and, when given, its page.
package struct StoryQuote: Codable, Sendable, Equatable {
    package var quote: String
    package var page: Int?

    package init(quote: String, page: Int? = nil) {
        (self.quote, self.page) = (quote, page)
    }
}

/// API.md §9 **Story**; `content` is left out when there is none.
package struct QuotehubStory: Codable, Sendable, Equatable {
    package var id: String
    package var userId: QuotehubUser
    package var bookId: QuotehubBook
    package var quotes: [StoryQuote]
    package var content: String?
    package var storyImageURLs: [String]
    package var isPublic: Bool
    package var keywords: [String]
    package var folderIds: [String]
    package var createdAt: String
    package var updatedAt: String

    package init(
        id: String, userId: QuotehubUser, bookId: QuotehubBook, quotes: [StoryQuote], content: String?, storyImageURLs: [String],
        isPublic: Bool, keywords: [String], folderIds: [String], createdAt: String, updatedAt: String
    ) {
        (self.id, self.userId, self.bookId, self.quotes, self.content, self.storyImageURLs) = (id, userId, bookId, quotes, content, storyImageURLs)
        (self.isPublic, self.keywords, self.folderIds, self.createdAt, self.updatedAt) = (isPublic, keywords, folderIds, createdAt, updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case userId, bookId, quotes, content, storyImageURLs, isPublic, keywords, folderIds, createdAt, updatedAt
    }
}

/// `POST /bookstories/createBookStory` and `PUT /bookstories/update/{id}` as JSON; the multipart
/// form carries the same fields, lists as JSON-encoded strings and `isPublic` as `"true"`/`"false"`.
package struct StoryFields: Codable, Sendable, Equatable {
    package var bookId: String?
    package var quotes: [StoryQuote]?
    package var isPublic: Bool?
    package var content: String?
    package var keywords: [String]?
    package var folderIds: [String]?

    package init(
        bookId: String? = nil, quotes: [StoryQuote]? = nil, isPublic: Bool? = nil, content: String? = nil, keywords: [String]? = nil,
        folderIds: [String]? = nil
    ) {
        (self.bookId, self.quotes, self.isPublic, self.content, self.keywords, self.folderIds) = (
            bookId, quotes, isPublic, content, keywords, folderIds
        )
    }
}
