import Contracts
import Foundation
import ServiceKit

/// Validation of post fields, shared by create and update.
enum PostRules {
    static func apply(_ update: PostFields, to record: inout PostRecord) throws {
        // `""` is a category too (API.md §2: SpotChat creates every post with it).
        if let category = try FieldRule.text(update.category, "category", 0...50, trimming: .whitespaces) { record.category = category }
        if let title = try FieldRule.text(update.title, "title", 1...200, trimming: .whitespacesAndNewlines) { record.title = title }
        if let price = update.price {
            guard (0...1_000_000_000).contains(price) else { throw ServiceError.badRequest("price must be 0 or more") }
            record.price = price
        }
        if let content = try FieldRule.text(update.content, "content", 0...5000) {
            record.content = content
            record.hashTags = JSONText.encode(hashTags(in: content))
        }
        let extra: [(String?, WritableKeyPath<PostRecord, String>)] = [
            (update.content1, \.content1), (update.content2, \.content2), (update.content3, \.content3),
            (update.content4, \.content4), (update.content5, \.content5),
        ]
        for (value, keyPath) in extra {
            if let value = try FieldRule.text(value, "content1-5", 0...1000) { record[keyPath: keyPath] = value }
        }
        if let files = try FieldRule.uploadedPaths(
            update.files, area: "posts", count: 0...5, problem: "files must be at most 5 paths from POST /v1/posts/files")
        {
            record.files = JSONText.encode(files)
        }
        switch (update.longitude, update.latitude) {
        case (nil, nil): break
        case (let longitude?, let latitude?) where (-180...180).contains(longitude) && (-90...90).contains(latitude):
            (record.longitude, record.latitude) = (longitude, latitude)
        default: throw ServiceError.badRequest("longitude and latitude go together and must be in range")
        }
        if let isPublic = update.isPublic { record.isPublic = isPublic }
    }

    private static let hashTagPattern = try! NSRegularExpression(pattern: "#([\\p{L}\\p{N}_]+)")

    /// `#word`s of a post's content, first 30, each once.
    static func hashTags(in content: String) -> [String] {
        let range = NSRange(content.startIndex..., in: content)
        var seen: [String] = []
        for match in hashTagPattern.matches(in: content, range: range) {
            if let tagRange = Range(match.range(at: 1), in: content) {
                let tag = String(content[tagRange])
                if !seen.contains(tag), seen.count < 30 { seen.append(tag) }
            }
        }
        return seen
    }
}
