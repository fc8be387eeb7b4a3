/// The devices to push to: one per token, each registered by a user's session.
protocol DeviceStore: Sendable {
    /// `token` for the user's session, moved from whoever had it.
    func register(token: String, platform: DevicePlatform, appID: String, userID: String, sessionID: String, at time: Int64) async throws
    /// The devices the user's session registered (sign-out on that device).
    func removeDevices(appID: String, userID: String, sessionID: String) async throws
}
