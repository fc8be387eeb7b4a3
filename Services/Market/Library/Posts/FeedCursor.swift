import Contracts
import ServiceKit

/// The opaque `next` of post lists: the creation time and insertion sequence of the last post of
/// a page, so the next page starts strictly after it however many posts are created meanwhile.
/// (Ids order by second only: their middle bytes are random.)
struct FeedCursor: Hashable {
    var createdAt: Int64
    var sequence: Int64

    static let end = "0"

    var text: String { "\(createdAt)_\(sequence)" }

    /// nil for the first page (missing, empty or "0" — some clients echo the end marker).
    static func parse(_ text: String?) throws -> FeedCursor? {
        guard let text, !text.isEmpty, text != end else { return nil }
        let parts = text.split(separator: "_")
        guard parts.count == 2, let createdAt = Int64(parts[0]), let sequence = Int64(parts[1]) else {
            throw ServiceError.badRequest("invalid next cursor")
        }
        return FeedCursor(createdAt: createdAt, sequence: sequence)
    }
}
