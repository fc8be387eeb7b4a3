import GRDB

/// A report as stored: who reported what (`user`, `post`, `comment`, `bookstory`), and why.
struct ReportRecord: Codable, Sendable, Equatable, FetchableRecord {
    var id, appID, reporterID, targetType, targetID, reason: String
    var createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case id, reason
        case appID = "app_id"
        case reporterID = "reporter_id"
        case targetType = "target_type"
        case targetID = "target_id"
        case createdAt = "created_at"
    }
}
