import Contracts
import Foundation
import ServiceKit

/// A post as stored; list columns are JSON text.
struct PostRecord: Codable, Equatable, Sendable {
    var id, appID, creatorID: String
    var productID: String?
    var category, title: String
    var price: Int
    var content: String
    var content1 = "", content2 = "", content3 = "", content4 = "", content5 = ""
    var files = "[]", hashTags = "[]"
    var longitude, latitude: Double?
    var isPublic = true
    var createdAt, updatedAt: Int64

    enum CodingKeys: String, CodingKey {
        case id, category, title, price, content, content1, content2, content3, content4, content5, files, longitude, latitude
        case appID = "app_id"
        case creatorID = "creator_id"
        case productID = "product_id"
        case hashTags = "hash_tags"
        case isPublic = "is_public"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The columns every read of either engine selects, in this order (SQLite's `init(row:)`
    /// reads them by position).
    static let selection = """
        id, app_id, creator_id, product_id, category, title, price, content, content1, content2, content3, content4, content5, \
        files, hash_tags, longitude, latitude, is_public, created_at, updated_at
        """

    var fileList: [String] { JSONText.strings(files) ?? [] }
    var hashTagList: [String] { JSONText.strings(hashTags) ?? [] }

    /// On the map: public and located.
    var isMapped: Bool { isPublic && longitude != nil && latitude != nil }
}

extension PostLocationEvent {
    /// What geo-svc must learn when a post changes (nil before: created; nil after: deleted at
    /// `at`): only public, located posts are on the map; nil when nothing it knows changed.
    init?(from before: PostRecord?, to after: PostRecord?, at now: Int64 = GlintDate.nowMilliseconds()) {
        let was = before.flatMap { $0.isMapped ? $0 : nil }, mapped = after.flatMap { $0.isMapped ? $0 : nil }
        guard let post = mapped ?? was else { return nil }
        if let was, let mapped, was.longitude == mapped.longitude, was.latitude == mapped.latitude, was.category == mapped.category { return nil }
        // A deletion comes after the post's last change, also within its millisecond.
        let version = after.map(\.updatedAt) ?? max(now, post.updatedAt + 1)
        self.init(
            postID: post.id, appID: post.appID, category: post.category, longitude: mapped?.longitude, latitude: mapped?.latitude,
            createdAt: post.createdAt, removed: mapped == nil, version: version)
    }
}
