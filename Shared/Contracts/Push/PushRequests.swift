/// `PUT /v1/users/deviceToken` (API.md §6): `""` clears this device's token. `platform`
/// (`fcm` or `apns`) is optional: without it the token's form decides.
package struct DeviceTokenRequest: Codable, Sendable, Equatable {
    package var deviceToken: String
    package var platform: String?

    package init(deviceToken: String, platform: String? = nil) {
        self.deviceToken = deviceToken
        self.platform = platform
    }
}

/// `POST /v1/notifications/push` and (with `userIDs`) `/push/group`.
package struct PushRequest: Codable, Sendable, Equatable {
    package var userID: String?
    package var userIDs: [String]?
    package var title: String
    package var body: String
    package var data: [String: String]?

    package init(userID: String? = nil, userIDs: [String]? = nil, title: String, body: String, data: [String: String]? = nil) {
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
package struct NotificationAnswer: Codable, Sendable, Equatable {
    package var notificationID: String

    package init(notificationID: String) {
        self.notificationID = notificationID
    }

    enum CodingKeys: String, CodingKey {
        case notificationID = "notification_id"
    }
}
