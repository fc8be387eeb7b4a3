/// Where market-svc's public, located posts are.
protocol LocationStore: Sendable {
    /// The post's place and category, replacing what was known of it.
    func upsert(postID: String, appID: String, category: String, at location: Coordinate, createdAt: Int64) async throws
    func remove(postID: String) async throws
    /// The app's posts inside any of the boxes (and of the categories, when given).
    func posts(in boxes: [CoordinateBox], appID: String, categories: [String]) async throws -> [LocatedPost]
}

/// A post's place, as stored.
struct LocatedPost: Sendable, Equatable {
    var postID: String
    var location: Coordinate
    var createdAt: Int64
}
