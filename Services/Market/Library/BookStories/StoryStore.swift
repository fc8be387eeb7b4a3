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
    /// One page, newest first, and how many stories match in all (one snapshot).
    func page(_ query: StoryQuery) async throws -> (stories: [StoryRecord], total: Int)
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
