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
        until = request.until.map(Self.milliseconds)
        createdAt = Self.milliseconds(time)
    }

    var state: BanState {
        BanState(userID: userID, reason: reason, until: until.map(Self.date), operatorID: operatorID, createdAt: Self.date(createdAt))
    }

    var revoked: RevokedUser { RevokedUser(appID: appID, userID: userID, until: until.map(Self.date)) }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
