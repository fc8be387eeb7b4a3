/// A delivery being sent.
struct ClaimedDelivery: Sendable {
    var id: Int64
    var target: String
    var platform: DevicePlatform
    var attempts: Int
    var message: PushMessage
}
