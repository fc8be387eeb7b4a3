import Contracts
import ServiceClients
import ServiceKit

/// Stories, themes and comments in API.md §9's shapes: authors from one batch lookup at auth-svc,
/// books from one read (a page's from its stories' read), dates as ISO 8601, image URLs absolute
/// under the app's mount.
struct BookStoryRenderer: Sendable {
    let users: AuthClient
    let books: any BookStore

    /// `books`: the stories' books when their read brought them (a page's does), else read here.
    func stories(_ records: [StoryRecord], books known: [String: BookRecord]? = nil, for reader: Reader) async throws -> [QuotehubStory] {
        guard !records.isEmpty else { return [] }
        let authors = try await users.users(Array(Set(records.map(\.userID))), reader.appID, reader.requestID)
        let books: [String: BookRecord]
        if let known { books = known } else { books = try await self.books.books(ids: records.map(\.bookID), appID: reader.appID) }
        // `story.book_id` references `book` (ON DELETE RESTRICT) and books are never removed.
        return records.compactMap { story in
            guard let book = books[story.bookID] else { return nil }
            return QuotehubStory(
                id: story.id, userId: reader.urls.user(authors.full(story.userID)), bookId: book.answer,
                quotes: story.quotes, content: story.content, storyImageURLs: story.images.map(reader.urls.url), isPublic: story.isPublic,
                keywords: story.keywords, folderIds: story.themeIDs, createdAt: GlintDate.string(fromMilliseconds: story.createdAt),
                updatedAt: GlintDate.string(fromMilliseconds: story.updatedAt)
            )
        }
    }

    func themes(_ records: [ThemeRecord], for reader: Reader) async throws -> [QuotehubTheme] {
        guard !records.isEmpty else { return [] }
        let authors = try await users.users(Array(Set(records.map(\.userID))), reader.appID, reader.requestID)
        return records.map { theme in
            QuotehubTheme(
                id: theme.id, userId: reader.urls.user(authors.full(theme.userID)), name: theme.name, description: theme.description,
                folderImageURL: theme.image.map(reader.urls.url), isPublic: theme.isPublic,
                createdAt: GlintDate.string(fromMilliseconds: theme.createdAt), updatedAt: GlintDate.string(fromMilliseconds: theme.updatedAt)
            )
        }
    }

    /// Comments; each given top-level one carries its replies (`replies` nil leaves them out).
    func comments(_ records: [CommentRecord], replies: [String: [CommentRecord]]?, for reader: Reader) async throws -> [QuotehubComment] {
        guard !records.isEmpty else { return [] }
        let everyone = records + (replies?.values.flatMap { $0 } ?? [])
        let authors = try await users.users(Array(Set(everyone.map(\.creatorID))), reader.appID, reader.requestID)
        func render(_ comment: CommentRecord, _ replies: [QuotehubComment]?) -> QuotehubComment {
            QuotehubComment(
                id: comment.id, userId: reader.urls.user(authors.full(comment.creatorID)), bookStoryId: comment.targetID, content: comment.content,
                parentCommentId: comment.parentID, createdAt: GlintDate.string(fromMilliseconds: comment.createdAt),
                updatedAt: GlintDate.string(fromMilliseconds: comment.updatedAt), replies: replies
            )
        }
        return records.map { comment in render(comment, replies.map { ($0[comment.id] ?? []).map { render($0, nil) } }) }
    }
}
