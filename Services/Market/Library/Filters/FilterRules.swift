import Contracts
import Foundation
import ServiceKit

/// Validation of filter fields, shared by create and update.
enum FilterRules {
    static func apply(_ request: FilterRequest, to record: inout FilterRecord) throws {
        if let category = try FieldRule.text(request.category, "category", 1...50, trimming: .whitespaces) { record.category = category }
        if let title = try FieldRule.text(request.title, "title", 1...100, trimming: .whitespacesAndNewlines) { record.title = title }
        if let description = try FieldRule.text(request.description, "description", 0...2000) { record.description = description }
        if let price = request.price {
            guard (0...10_000_000).contains(price) else { throw ServiceError.badRequest("price must be 0 to 10,000,000") }
            record.price = price
        }
        if let files = try FieldRule.uploadedPaths(
            request.files, area: "filters", count: 1...5, problem: "files must be 1-5 paths from POST /v1/filters/files")
        {
            record.files = JSONText.encode(files)
        }
        if let values = request.filterValues {
            if let bad = values.outOfRange { throw ServiceError.badRequest("filter_values.\(bad) out of range") }
            record.filterValues = JSONText.encode(values)
        }
        if let metadata = request.photoMetadata {
            if let latitude = metadata.latitude, !(-90...90).contains(latitude) {
                throw ServiceError.badRequest("photo_metadata.latitude out of range")
            }
            if let longitude = metadata.longitude, !(-180...180).contains(longitude) {
                throw ServiceError.badRequest("photo_metadata.longitude out of range")
            }
            let text = JSONText.encode(metadata)
            guard text.utf8.count <= 4096 else { throw ServiceError.badRequest("photo_metadata too large") }
            record.photoMetadata = text
        }
    }

    /// A filter someone ordered stays (its buyers keep what they paid for). Asked by each store
    /// inside its delete, from the orders it counted there.
    static func checkDeletable(orders: Int) throws {
        guard orders == 0 else { throw StoreError.conflict("a filter with orders cannot be deleted") }
    }
}
