import ServiceKit

/// Delivers one message to one target; the live value routes by platform to FCM or APNs.
struct PushSender: Sendable {
    var send: @Sendable (_ platform: DevicePlatform, _ target: String, _ message: PushMessage) async -> DeliveryResult

    static func live(fcm: FCMClient?, apns: APNsClient?) -> PushSender {
        PushSender { platform, target, message in
            switch platform {
            case .fcm, .fcmTopic:
                guard let fcm else { return .failed("FCM is not configured") }
                return await fcm.send(platform == .fcmTopic ? .topic(target) : .token(target), message)
            case .apns:
                guard let apns else { return .failed("APNs is not configured") }
                return await apns.send(target, message)
            }
        }
    }

    /// No delivery expected: the first one fails the running test (and ends as a failed delivery).
    static let unimplemented = PushSender { _, _, _ in .failed(Unimplemented.call("PushSender.send").description) }
}
