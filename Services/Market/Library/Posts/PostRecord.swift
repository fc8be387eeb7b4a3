import Contracts
import Foundation
import GRDB
import ServiceKit

/// A row of `post`; list columns are JSON text.
struct PostRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "post"

    var id: String
    var appID: String
    var creatorID: String
    var productID: String?
    var category: String
    var title: String
    var price: Int
    var content: String
    var content1 = ""
    var content2 = ""
    var content3 = ""
    var content4 = ""
    var content5 = ""
    var files = "[]"
    var hashTags = "[]"
    var longitude: Double?
    var latitude: Double?
    var isPublic = true
    var createdAt: Int64
    var updatedAt: Int64

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, category, title, price, content, content1, content2, content3, content4, content5, files, longitude, latitude
        case appID = "app_id"
        case creatorID = "creator_id"
        case productID = "product_id"
        case hashTags = "hash_tags"
        case isPublic = "is_public"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    static func list(_ text: String) -> [String] {
        JSONText.decode(text) ?? []
    }

    static func text(_ list: [String]) -> String {
        JSONText.encode(list)
    }

    func answer(creator: UserInfo) -> PostAnswer {
        PostAnswer(
            postID: id, productID: productID, category: category, title: title, price: price, content: content,
            contents: [content1, content2, content3, content4, content5],
            createdAt: GlintDate.string(fromMilliseconds: createdAt), updatedAt: GlintDate.string(fromMilliseconds: updatedAt),
            creator: creator, files: Self.list(files), likes: [], likes2: [], buyers: [], hashTags: Self.list(hashTags), comments: [],
            geolocation: Geolocation(longitude: longitude ?? 0, latitude: latitude ?? 0), isPublic: isPublic
        )
    }
}
