/// API.md §9 **Book**: every key present (empty strings and lists when Kakao has nothing).
package struct QuotehubBook: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var author: [String]
    package var translator: [String]
    package var introduction: String
    package var publisher: String
    package var publicationDate: String
    package var bookImageURL: String
    package var bookLink: String
    package var isbn: [String]

    package init(
        id: String, title: String, author: [String], translator: [String], introduction: String, publisher: String, publicationDate: String,
        bookImageURL: String, bookLink: String, isbn: [String]
    ) {
        (self.id, self.title, self.author, self.translator, self.introduction) = (id, title, author, translator, introduction)
        (self.publisher, self.publicationDate, self.bookImageURL, self.bookLink, self.isbn) = (
            publisher, publicationDate, bookImageURL, bookLink, isbn
        )
    }

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case title, author, translator, introduction, publisher, publicationDate, bookImageURL, bookLink
        case isbn = "ISBN"
    }
}

/// `GET /book/search`: Kakao's page of books (each stored, with our `_id`) and Kakao's `meta`.
package struct BookSearchAnswer: Codable, Sendable, Equatable {
    package var documents: [QuotehubBook]
    package var meta: BookSearchMeta

    package init(documents: [QuotehubBook], meta: BookSearchMeta) {
        (self.documents, self.meta) = (documents, meta)
    }
}

/// Kakao's `meta` as it answers it.
package struct BookSearchMeta: Codable, Sendable, Equatable {
    package var isEnd: Bool
    package var pageableCount: Int
    package var totalCount: Int

    package init(isEnd: Bool, pageableCount: Int, totalCount: Int) {
        (self.isEnd, self.pageableCount, self.totalCount) = (isEnd, pageableCount, totalCount)
    }

    enum CodingKeys: String, CodingKey {
        case isEnd = "is_end"
        case pageableCount = "pageable_count"
        case totalCount = "total_count"
    }
}
