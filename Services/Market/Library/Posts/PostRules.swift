import Contracts
import Foundation
import ServiceKit

/// Validation of post fields, shared by create and update.
enum PostRules {
    static func apply(_ update: PostUpdateRequest, to record: inout PostRecord) throws {
        if let category = update.category?.trimmingCharacters(in: .whitespaces) {
            guard (1...50).contains(category.count) else { throw ServiceError.badRequest("category must be 1-50 characters") }
            record.category = category
        }
        if let title = update.title?.trimmingCharacters(in: .whitespacesAndNewlines) {
            guard (1...200).contains(title.count) else { throw ServiceError.badRequest("title must be 1-200 characters") }
            record.title = title
        }
        if let price = update.price {
            guard (0...1_000_000_000).contains(price) else { throw ServiceError.badRequest("price must be 0 or more") }
            record.price = price
        }
        if let content = update.content {
            guard content.count <= 5000 else { throw ServiceError.badRequest("content must be at most 5000 characters") }
            record.content = content
            record.hashTags = PostRecord.text(PostService.hashTags(in: content))
        }
        let extra: [(String?, WritableKeyPath<PostRecord, String>)] = [
            (update.content1, \.content1), (update.content2, \.content2), (update.content3, \.content3),
            (update.content4, \.content4), (update.content5, \.content5),
        ]
        for (value, keyPath) in extra {
            guard let value else { continue }
            guard value.count <= 1000 else { throw ServiceError.badRequest("content1-5 must be at most 1000 characters") }
            record[keyPath: keyPath] = value
        }
        if let files = update.files {
            guard files.count <= 5, files.allSatisfy({ $0.hasPrefix("/data/posts/") && $0.count <= 100 }) else {
                throw ServiceError.badRequest("files must be at most 5 paths from POST /v1/posts/files")
            }
            record.files = PostRecord.text(files)
        }
        switch (update.longitude, update.latitude) {
        case (nil, nil): break
        case (let longitude?, let latitude?) where (-180...180).contains(longitude) && (-90...90).contains(latitude):
            (record.longitude, record.latitude) = (longitude, latitude)
        default: throw ServiceError.badRequest("longitude and latitude go together and must be in range")
        }
        if let isPublic = update.isPublic { record.isPublic = isPublic }
    }
}
