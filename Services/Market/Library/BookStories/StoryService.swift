import Contracts
import FileStorage
import Foundation
import ServiceKit

/// API.md §9 book stories: written by their author, read by anyone they are public to (a private
/// story is its author's alone), hidden from a reader who blocked or reported its author or
/// reported it.
struct StoryService: AuthoredContent {
    let stories: any StoryStore
    let renderer: BookStoryRenderer
    let images: FileStore
    static let noun = "story"

    func create(_ fields: StoryFields, images parts: [MultipartForm.Part], by reader: Reader) async throws -> QuotehubStory {
        let userID = try reader.requireUser()
        guard let bookID = fields.bookId, ObjectID.isValid(bookID) else { throw ServiceError.badRequest("bookId must be a book's id") }
        let now = GlintDate.nowMilliseconds()
        var story = StoryRecord(
            id: ObjectID.generate(), appID: reader.appID, userID: userID, bookID: bookID, quotes: try StoryRules.quotes(fields.quotes),
            content: try StoryRules.content(fields.content), images: [], isPublic: fields.isPublic ?? true,
            keywords: try StoryRules.keywords(fields.keywords ?? []), themeIDs: try StoryRules.themeIDs(fields.folderIds ?? []), createdAt: now,
            updatedAt: now
        )
        try await images.storing(try StoryRules.images(parts), appID: reader.appID) { paths in
            story.images = paths
            try await stories.insert(story)
        }
        return try await render([story], for: reader)[0]
    }

    /// Absent fields stay; an empty `content`, `keywords` or `folderIds` clears it; new images
    /// replace the old ones (removed once the story no longer points at them).
    func update(_ id: String, _ fields: StoryFields, images parts: [MultipartForm.Part], by reader: Reader) async throws -> QuotehubStory {
        let before = try await owned(id, by: reader)
        var story = before
        if let quotes = fields.quotes { story.quotes = try StoryRules.quotes(quotes) }
        if fields.content != nil { story.content = try StoryRules.content(fields.content) }
        if let isPublic = fields.isPublic { story.isPublic = isPublic }
        if let keywords = fields.keywords { story.keywords = try StoryRules.keywords(keywords) }
        if let themeIDs = fields.folderIds { story.themeIDs = try StoryRules.themeIDs(themeIDs) }
        story.updatedAt = GlintDate.nowMilliseconds()
        try await images.replacing(before.files, with: try StoryRules.images(parts), appID: reader.appID) { paths in
            if let paths { story.images = paths }
            try await stories.update(story)
        }
        return try await render([story], for: reader)[0]
    }

    func render(_ records: [StoryRecord], for reader: Reader) async throws -> [QuotehubStory] {
        try await renderer.stories(records, for: reader)
    }

    func forget(_ story: StoryRecord) async throws {
        try await stories.delete(story)
    }

    /// A page of stories, newest first, with exact numbers.
    func list(
        _ scope: StoryQuery.Scope, keyword: String? = nil, themeID: String? = nil, page: PageRequest, for reader: Reader
    ) async throws -> PageEnvelope<QuotehubStory> {
        let found = try await stories.page(
            StoryQuery(
                appID: reader.appID, scope: scope, hidden: Self.hidden(scope, reader), keyword: keyword.map { $0.lowercased() }, themeID: themeID,
                page: page
            ))
        return PageEnvelope(
            message: "스토리 목록을 불러왔습니다.", data: try await renderer.stories(found.stories, books: found.books, for: reader),
            pagination: page.pagination(total: found.total))
    }

    /// How many stories the reader may see of an author (all of one's own).
    func count(of userID: String, for reader: Reader) async throws -> Int {
        guard ObjectID.isValid(userID) else { throw ServiceError.badRequest("invalid user id") }
        if reader.hidden.hides(user: userID) { return 0 }
        return try await stories.count(userID: userID, appID: reader.appID, privateToo: reader.isOwner(of: userID))
    }

    /// The story if the reader may see it: 400 for a malformed id, 404 for a missing, private
    /// or hidden one.
    func visible(_ id: String, to reader: Reader) async throws -> StoryRecord {
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid story id") }
        guard let story = try await stories.story(id: id, appID: reader.appID),
            story.isPublic || reader.isOwner(of: story.userID), !reader.hidden.hides(story: story)
        else {
            throw ServiceError.notFound("스토리를 찾을 수 없습니다.")
        }
        return story
    }

    /// The reader's own lists hide nothing of theirs but what operators took down.
    private static func hidden(_ scope: StoryQuery.Scope, _ reader: Reader) -> HiddenFilter {
        if case .author(let userID, _) = scope, reader.isOwner(of: userID) { return reader.takenDown }
        return reader.hidden
    }

}
