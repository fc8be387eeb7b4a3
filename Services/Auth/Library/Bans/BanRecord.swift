import Contracts
import Foundation
import GRDB

/// A ban as stored (`ban`): times in milliseconds, `until` nil for ever.
struct BanRecord: Codable, Sendable, Equatable, FetchableRecord {
    var userID, appID, reason, operatorID: String
    var until: Int64?
    var createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case reason
        case until = "banned_until"
        case userID = "user_id"
        case appID = "app_id"
        case operatorID = "operator_id"
        case createdAt = "created_at"
    }

    init(userID: String, appID: String, _ request: BanRequest, at time: Date) {
        (self.userID, self.appID, reason, operatorID) = (userID, appID, request.reason, request.operatorID)
        until = request.until.map(GlintDate.milliseconds)
        createdAt = GlintDate.milliseconds(time)
    }

    var state: BanState {
        BanState(
            userID: userID, reason: reason, until: until.map(GlintDate.date(fromMilliseconds:)), operatorID: operatorID,
            createdAt: GlintDate.date(fromMilliseconds: createdAt))
    }

    var revoked: RevokedUser { RevokedUser(appID: appID, userID: userID, until: until.map(GlintDate.date(fromMilliseconds:))) }
}
