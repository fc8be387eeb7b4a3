/// Where a token is delivered: APNs device tokens are 64 hex digits; FCM registration tokens are
/// longer and carry `:`, `-`, `_`; an FCM topic is a target of its own.
enum DevicePlatform: String, Codable, Sendable {
    case fcm
    case apns
    case fcmTopic = "fcm-topic"

    static func detect(_ token: String) -> DevicePlatform {
        token.utf8.count == 64 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) } ? .apns : .fcm
    }
}
