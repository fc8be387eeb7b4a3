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

    package init(postID: String, appID: String, category: String, longitude: Double?, latitude: Double?, createdAt: Int64, removed: Bool) {
        self.postID = postID
        self.appID = appID
        self.category = category
        self.longitude = longitude
        self.latitude = latitude
        self.createdAt = createdAt
        self.removed = removed
    }

    enum CodingKeys: String, CodingKey {
        case postID = "post_id"
        case appID = "app_id"
        case category, longitude, latitude
        case createdAt = "created_at"
        case removed
    }

    package static let topic = "geo.post-location"
}
