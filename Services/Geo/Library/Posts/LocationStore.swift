/// Where market-svc's public, located posts are.
protocol LocationStore: Sendable {
    /// The post's place and category, replacing what was known of it unless that is newer.
    func upsert(_ change: LocationChange, at location: Coordinate) async throws
    /// The post off the map, unless what is known of it is newer; remembered with its version,
    /// so that an older placing delivered late does not bring it back.
    func remove(_ change: LocationChange) async throws
    /// The app's posts inside any of the boxes (and of the categories, when given).
    func posts(in boxes: [CoordinateBox], appID: String, categories: [String]) async throws -> [LocatedPost]
}

/// A post's place, as stored.
struct LocatedPost: Sendable, Equatable {
    var postID: String
    var location: Coordinate
    var createdAt: Int64
}

/// What an event says of a post besides its place. A nil `version` (an event queued before
/// versions) is applied whatever is known.
struct LocationChange: Sendable, Equatable {
    var postID: String
    var appID: String
    var category: String
    var createdAt: Int64
    var version: Int64?
}
