import Contracts
import Foundation
import GRDB
import ServiceKit

/// A row of `filter`; values and metadata are JSON text.
struct FilterRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "filter"

    var id: String
    var appID: String
    var creatorID: String
    var category: String
    var title: String
    var description: String
    var price: Int
    var files: String
    var photoMetadata: String?
    var filterValues: String
    var createdAt: Int64
    var updatedAt: Int64

    enum CodingKeys: String, CodingKey, ColumnExpression {
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
    var fileList: [String] { JSONText.decode(files) ?? [] }
}
