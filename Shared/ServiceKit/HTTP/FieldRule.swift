import Foundation

/// Request fields checked the same way everywhere, each failing with a 400 that names the field.
package enum FieldRule {
    /// Text whose length (after trimming, when asked) is in `lengths`: "title must be 1-200
    /// characters", "content must be at most 5000 characters". nil passes (a field not sent).
    package static func text(_ value: String?, _ field: String, _ lengths: ClosedRange<Int>, trimming: CharacterSet? = nil) throws -> String? {
        guard let value else { return nil }
        let text = trimming.map { value.trimmingCharacters(in: $0) } ?? value
        guard lengths.contains(text.count) else {
            let bound = lengths.lowerBound == 0 ? "at most \(lengths.upperBound)" : "\(lengths.lowerBound)-\(lengths.upperBound)"
            throw ServiceError.badRequest("\(field) must be \(bound) characters")
        }
        return text
    }

    /// Paths answered by one of our uploads (`/data/<area>/…`), as many as `count` allows.
    package static func uploadedPaths(_ value: [String]?, area: String, count: ClosedRange<Int>, problem: String) throws -> [String]? {
        guard let value else { return nil }
        let prefix = "/data/\(area)/"
        guard count.contains(value.count), value.allSatisfy({ $0.hasPrefix(prefix) && $0.count <= 100 }) else {
            throw ServiceError.badRequest(problem)
        }
        return value
    }
}
