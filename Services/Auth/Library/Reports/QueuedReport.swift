import GRDB

/// A report with what closed it (`report`'s moderation columns): nil while open.
struct QueuedReport: Codable, Sendable, Equatable, FetchableRecord {
    var id, appID, reporterID, targetType, targetID, reason: String
    var createdAt: Int64
    var closedAt: Int64?
    var action: String?
    var closedBy: String?

    enum CodingKeys: String, CodingKey {
        case id, reason, action
        case appID = "app_id"
        case reporterID = "reporter_id"
        case targetType = "target_type"
        case targetID = "target_id"
        case createdAt = "created_at"
        case closedAt = "closed_at"
        case closedBy = "closed_by"
    }
}
