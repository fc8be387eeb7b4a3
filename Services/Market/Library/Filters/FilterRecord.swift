import Contracts
import Foundation
import ServiceKit

/// A filter as stored; values and metadata are JSON text.
struct FilterRecord: Codable, Equatable, Sendable {
    var id, appID, creatorID: String
    var category, title, description: String
    var price: Int
    var files: String
    var photoMetadata: String?
    var filterValues: String
    var createdAt, updatedAt: Int64

    enum CodingKeys: String, CodingKey {
        case id, category, title, description, price, files
        case appID = "app_id"
        case creatorID = "creator_id"
        case photoMetadata = "photo_metadata"
        case filterValues = "filter_values"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    var values: FilterValues { JSONText.decode(filterValues) ?? FilterValues() }
    var metadata: PhotoMetadata? { photoMetadata.flatMap(JSONText.decode) }
    var fileList: [String] { JSONText.strings(files) ?? [] }
}
