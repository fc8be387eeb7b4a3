/// market-svc → geo-svc (through the outbox): where a post is, or that it no longer is.
/// geo-svc applies these idempotently by `post_id`.
package struct PostLocationEvent: Codable, Sendable, Equatable {
    package var postID: String
    package var appID: String
    package var category: String
    package var longitude: Double?
    package var latitude: Double?
    package var createdAt: Int64
    /// The post is gone, private, or no longer located.
    package var removed: Bool
    /// When the post changed (ms): geo-svc keeps the newest it was told of. market-svc delivers
    /// an event ahead of its outbox, which delivers it again later, possibly after a newer one.
    /// Nil in events queued before versions existed: applied as they come.
    package var version: Int64?

    package init(
        postID: String, appID: String, category: String, longitude: Double?, latitude: Double?, createdAt: Int64, removed: Bool, version: Int64? = nil
    ) {
        self.postID = postID
        self.appID = appID
        self.category = category
        self.longitude = longitude
        self.latitude = latitude
        self.createdAt = createdAt
        self.removed = removed
        self.version = version
    }

    enum CodingKeys: String, CodingKey {
        case postID = "post_id"
        case appID = "app_id"
        case category, longitude, latitude
        case createdAt = "created_at"
        case removed, version
    }

    package static let topic = "geo.post-location"
}
