/// market-svc → geo-svc (through the outbox): where a post is, or that it no longer is.
/// geo-svc applies these idempotently by `post_id`.
public struct PostLocationEvent: Codable, Sendable, Equatable {
    public var postID: String
    public var appID: String
    public var category: String
    public var longitude: Double?
    public var latitude: Double?
    public var createdAt: Int64
    /// The post is gone, private, or no longer located.
    public var removed: Bool

    public init(postID: String, appID: String, category: String, longitude: Double?, latitude: Double?, createdAt: Int64, removed: Bool) {
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

    public static let topic = "geo.post-location"
}
