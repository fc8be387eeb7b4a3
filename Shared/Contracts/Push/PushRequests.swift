/// `PUT /v1/users/deviceToken` (API.md §6): `""` clears this device's token. `platform`
/// (`fcm` or `apns`) is optional: without it the token's form decides.
public struct DeviceTokenRequest: Codable, Sendable, Equatable {
    public var deviceToken: String
    public var platform: String?

    public init(deviceToken: String, platform: String? = nil) {
        self.deviceToken = deviceToken
        self.platform = platform
    }
}

/// `POST /v1/notifications/push` and (with `userIDs`) `/push/group`.
public struct PushRequest: Codable, Sendable, Equatable {
    public var userID: String?
    public var userIDs: [String]?
    public var title: String
    public var body: String
    public var data: [String: String]?

    public init(userID: String? = nil, userIDs: [String]? = nil, title: String, body: String, data: [String: String]? = nil) {
        self.userID = userID
        self.userIDs = userIDs
        self.title = title
        self.body = body
        self.data = data
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case userIDs = "user_ids"
        case title, body, data
    }
}

/// The answer of both push endpoints.
public struct NotificationAnswer: Codable, Sendable, Equatable {
    public var notificationID: String

    public init(notificationID: String) {
        self.notificationID = notificationID
    }

    enum CodingKeys: String, CodingKey {
        case notificationID = "notification_id"
    }
}
