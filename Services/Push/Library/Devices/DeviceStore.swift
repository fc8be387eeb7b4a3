import GRDB

/// The devices to push to: one per token, each registered by a user's session.
protocol DeviceStore: Sendable {
    /// `token` for the user's session, moved from whoever had it.
    func register(token: String, platform: DevicePlatform, appID: String, userID: String, sessionID: String, at time: Int64) async throws
    /// The devices the user's session registered (sign-out on that device).
    func removeDevices(appID: String, userID: String, sessionID: String) async throws
    /// The user's devices, newest first.
    func devices(appID: String, userID: String) async throws -> [DeviceRecord]
}

/// A device as stored (`device`).
struct DeviceRecord: Codable, Sendable, Equatable, FetchableRecord {
    var token, appID, userID, sessionID, platform: String
    var updatedAt: Int64

    enum CodingKeys: String, CodingKey {
        case token, platform
        case appID = "app_id"
        case userID = "user_id"
        case sessionID = "session_id"
        case updatedAt = "updated_at"
    }
}
