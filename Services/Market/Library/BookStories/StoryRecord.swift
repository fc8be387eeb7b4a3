import Contracts
import GRDB
import ServiceKit

/// A book story: quotes from a book, the author's thoughts, images, keywords and the themes
/// (`themeIDs`, the client's `folderIds`) it is gathered in.
struct StoryRecord: AuthoredRecord, Equatable {
    var id: String
    var appID: String
    var userID: String
    var bookID: String
    var quotes: [StoryQuote]
    var content: String?
    var images: [String]
    var isPublic: Bool
    var keywords: [String]
    var themeIDs: [String]
    var createdAt: Int64
    var updatedAt: Int64

    var files: [String] { images }

    /// What keyword search reads: keywords, quotes and content, lowercased.
    var searchText: String {
        (keywords + quotes.map(\.quote) + [content ?? ""]).joined(separator: "\n").lowercased()
    }

    /// A row of `story`; its themes are read from `story_theme` beside it.
    init(row: Row, themeIDs: [String]) {
        self.init(
            id: row["id"], appID: row["app_id"], userID: row["user_id"], bookID: row["book_id"], quotes: StoryQuote.list(stored: row["quotes"]),
            content: row["content"], images: JSONText.strings(row["images"]) ?? [], isPublic: row["is_public"],
            keywords: JSONText.strings(row["keywords"]) ?? [],
            themeIDs: themeIDs, createdAt: row["created_at"], updatedAt: row["updated_at"]
        )
    }

    init(
        id: String, appID: String, userID: String, bookID: String, quotes: [StoryQuote], content: String?, images: [String], isPublic: Bool,
        keywords: [String], themeIDs: [String], createdAt: Int64, updatedAt: Int64
    ) {
        (self.id, self.appID, self.userID, self.bookID, self.quotes, self.content) = (id, appID, userID, bookID, quotes, content)
        (self.images, self.isPublic, self.keywords, self.themeIDs, self.createdAt, self.updatedAt) = (
            images, isPublic, keywords, themeIDs, createdAt, updatedAt
        )
    }
}
