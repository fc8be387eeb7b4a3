/// Themes; removing one leaves its stories (only their memberships go).
protocol ThemeStore: Sendable {
    func insert(_ theme: ThemeRecord) async throws
    func update(_ theme: ThemeRecord) async throws
    func delete(_ theme: ThemeRecord) async throws
    func theme(id: String, appID: String) async throws -> ThemeRecord?
    /// One page, newest first, and how many match in all.
    func page(_ query: ThemeQuery) async throws -> (themes: [ThemeRecord], total: Int)
}

/// Which themes a list shows: everyone's public ones, or one author's (all for the author).
struct ThemeQuery: Sendable {
    var appID: String
    var scope: StoryQuery.Scope
    var hidden: HiddenFilter
    /// Themes operators hid.
    var takenDown: Set<String> = []
    var page: PageRequest
}
