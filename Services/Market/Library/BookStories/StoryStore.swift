/// Book stories, the themes they are in, and what goes when a story or an account goes.
protocol StoryStore: Sendable {
    /// Stores the story and its theme memberships in one transaction; every theme must be the
    /// author's (`StoreError.notFound` otherwise), and the book known.
    func insert(_ story: StoryRecord) async throws
    /// Replaces the story's fields and memberships (same checks).
    func update(_ story: StoryRecord) async throws
    /// Removes the story with its comments and memberships.
    func delete(_ story: StoryRecord) async throws
    func story(id: String, appID: String) async throws -> StoryRecord?
    /// One page, newest first, how many stories match in all and the page's books by id (one
    /// snapshot, one read: the books were a round trip of their own).
    func page(_ query: StoryQuery) async throws -> (stories: [StoryRecord], total: Int, books: [String: BookRecord])
    /// A user's stories (public ones only unless `privateToo`).
    func count(userID: String, appID: String, privateToo: Bool) async throws -> Int
    /// Removes everything a revoked account made: its stories (with their comments), themes and
    /// comments, in one transaction; answers the stored images that are no longer used.
    func removeContent(of userID: String, appID: String) async throws -> [String]
}

/// Which stories a list shows.
struct StoryQuery: Sendable {
    enum Scope: Sendable, Equatable {
        /// Everyone's public stories.
        case everyone
        /// One author's: all of them for the author, public ones for others.
        case author(String, privateToo: Bool)
    }

    var appID: String
    var scope: Scope
    var hidden: HiddenFilter
    /// Lowercased; in keywords, quotes or content.
    var keyword: String?
    /// Only stories in this theme.
    var themeID: String?
    var page: PageRequest
}

extension StoryQuery {
    /// Below how many matches a public search's page is found faster among its matches, sorted,
    /// than by walking the public stories newest first (nil for other lists). Newest first reads
    /// about (offset + size) × public ÷ matches stories to fill the page, and every one of them
    /// when the matches are fewer than the page wants; from the search's index a store reads the
    /// matches alone (SQLite also every public story's index entry, a third of a story's cost,
    /// measured). Both stores choose by the matches counted, not by their planner's estimate.
    var fewMatches: Int? {
        keyword != nil && scope == .everyone ? 3 * (page.offset + page.size) : nil
    }
}
