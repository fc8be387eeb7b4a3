import Contracts
import ServiceKit

/// A walk as stored; `path` is the simplified path as JSON `[[latitude, longitude, ms], ...]`.
struct WalkRecord: Codable, Sendable {
    var id, appID, userID, title, postID: String
    var distanceM: Double
    var durationS: Int
    var calories: Double
    var startedAt, endedAt: Int64
    var minLatitude, minLongitude, maxLatitude, maxLongitude: Double
    var path, startAddress: String
    var createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case id, title, calories, path
        case appID = "app_id"
        case userID = "user_id"
        case postID = "post_id"
        case distanceM = "distance_m"
        case durationS = "duration_s"
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case minLatitude = "min_latitude"
        case minLongitude = "min_longitude"
        case maxLatitude = "max_latitude"
        case maxLongitude = "max_longitude"
        case startAddress = "start_address"
        case createdAt = "created_at"
    }
}
