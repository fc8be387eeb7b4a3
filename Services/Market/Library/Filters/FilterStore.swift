/// Filters, their likes and what their lists and rankings need.
protocol FilterStore: Sendable {
    func insert(_ filter: FilterRecord) async throws
    func update(_ filter: FilterRecord) async throws
    /// The filter and its comments; `StoreError.conflict` once someone has ordered it (its buyers keep it).
    func delete(id: String) async throws
    func filter(id: String, appID: String) async throws -> FilterRecord?
    /// What the filter's page shows, in one read: the filter, its comments, its stats for `viewer`.
    func detail(id: String, appID: String, viewer: String) async throws -> (record: FilterRecord, comments: [CommentRecord], stats: FilterStats)?
    /// Those of `ids` in `appID`, in no order.
    func filters(ids: [String], appID: String) async throws -> [FilterRecord]
    /// One page of a list (one more than asked when there are more), with the stats of the
    /// filters it shows for the query's viewer, in the same read.
    func page(_ query: FilterPageQuery) async throws -> FilterPage
    /// Like and buyer counts of the filters, and which of them `viewer` liked or bought.
    func stats(ids: [String], viewer: String) async throws -> FilterStats
    func setLike(filterID: String, userID: String, on: Bool, at time: Int64) async throws
    /// The app's filters by likes and paid purchases since `since` (a purchase counts double),
    /// newest first among equals.
    func hotFilterIDs(appID: String, since: Int64, limit: Int) async throws -> [String]
}

/// Which filters a list shows, in which order, from where.
struct FilterPageQuery: Sendable {
    enum Scope: Equatable, Sendable {
        case all
        case user(String)
        case likedByMe
    }

    enum Order: String, Sendable {
        case latest, likes, purchase
    }

    var scope: Scope
    var order: Order
    var appID: String
    var viewer: String
    var category: String?
    var hidden: Set<String>
    /// Filters operators hid: gone for every user, their creators too.
    var takenDown: Set<String> = []
    /// `latest` pages after a cursor; the rankings by position.
    var after: FeedCursor?
    var offset: Int
    var limit: Int
}

/// A list's page as read: its rows and the stats of those it shows.
struct FilterPage: Sendable {
    var rows: [(record: FilterRecord, cursor: FeedCursor)]
    var stats: FilterStats
}

struct FilterStats: Sendable {
    var likes: [String: Int] = [:]
    var buyers: [String: Int] = [:]
    var liked: Set<String> = []
    var bought: Set<String> = []
}
