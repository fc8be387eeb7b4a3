/// auth-svc → push-svc (through auth's outbox): the device token a client sent with its join or
/// login, for that login's session (the device). An empty token clears the session's devices.
package struct DeviceTokenEvent: Codable, Sendable, Equatable {
    package static let topic = "push.device-token"

    package var appID: String
    package var userID: String
    package var sessionID: String
    package var deviceToken: String

    package init(appID: String, userID: String, sessionID: String, deviceToken: String) {
        self.appID = appID
        self.userID = userID
        self.sessionID = sessionID
        self.deviceToken = deviceToken
    }

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case userID = "user_id"
        case sessionID = "session_id"
        case deviceToken = "device_token"
    }
}

/// What push-svc takes as a device token: printable ASCII without spaces, bounded.
package enum DeviceToken {
    package static let maxLength = 4096

    package static func isAcceptable(_ token: String) -> Bool {
        token.utf8.count <= maxLength && token.utf8.allSatisfy { $0 > 32 && $0 < 127 }
    }
}
