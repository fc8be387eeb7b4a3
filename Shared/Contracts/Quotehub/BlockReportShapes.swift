/// `POST /block-report/block` and `/unblock` (API.md §9).
package struct BlockTarget: Codable, Sendable {
    package var targetUserId: String

    package init(targetUserId: String) {
        self.targetUserId = targetUserId
    }
}

/// `POST /block-report/report` and `/cancel-report`: `type` is `user` or `bookstory`.
package struct ReportTarget: Codable, Sendable {
    package var targetId: String
    package var type: String
    package var reason: String?

    package init(targetId: String, type: String, reason: String? = nil) {
        (self.targetId, self.type, self.reason) = (targetId, type, reason)
    }
}

/// One of the caller's reports (`GET /block-report/reports`).
package struct QuotehubReport: Codable, Sendable, Equatable {
    package var id: String
    package var targetId: String
    package var reporterId: QuotehubUser
    package var type: String
    package var reason: String
    /// `User` or `BookStory`: what the target is.
    package var onModel: String
    package var createdAt: String
    package var updatedAt: String

    package init(
        id: String, targetId: String, reporterId: QuotehubUser, type: String, reason: String, onModel: String, createdAt: String, updatedAt: String
    ) {
        (self.id, self.targetId, self.reporterId, self.type, self.reason) = (id, targetId, reporterId, type, reason)
        (self.onModel, self.createdAt, self.updatedAt) = (onModel, createdAt, updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case targetId, reporterId, type, reason, onModel, createdAt, updatedAt
    }
}
