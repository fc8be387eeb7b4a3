import Contracts
import ServiceKit

/// Stores a notification and its deliveries (to every device of its users, and their FCM user
/// topics when configured) before anything is sent, then wakes the delivery worker.
struct NotificationService: Sendable {
    let store: any NotificationStore
    let userTopics: Bool
    /// Wakes the delivery worker.
    let queued: @Sendable () -> Void
    /// Operators' bans: a banned user's devices are sent nothing.
    let bans: RevocationList

    static let maxUsers = 10_000

    /// `key` makes a producer's retry a no-op (the same chat message twice is one notification).
    /// Answers the notification id and how many deliveries it queued.
    func enqueue(appID: String, users: [String], message: PushMessage, key: String? = nil) async throws -> (id: String, deliveries: Int) {
        let requested = Array(Set(users))
        guard requested.count <= Self.maxUsers else { throw ServiceError.badRequest("at most \(Self.maxUsers) users") }
        guard requested.allSatisfy(ObjectID.isValid) else { throw ServiceError.badRequest("invalid user id") }
        let users = requested.filter { !bans.isBanned(appID: appID, userID: $0) }
        let id = ObjectID.generate()
        let draft = NotificationDraft(id: id, appID: appID, key: key ?? id, message: message, createdAt: GlintDate.nowMilliseconds())
        let result = try await store.enqueue(draft, users: users, userTopics: userTopics)
        if result.deliveries > 0 { queued() }
        return result
    }

    /// A chat message for its room's members who are neither its sender nor present in the room
    /// right now; a producer's retry of the same message queues nothing.
    func enqueue(chatMessage event: ChatMessageEvent) async throws -> (id: String, deliveries: Int) {
        let absent = Set(event.recipients).subtracting(event.present).subtracting([event.senderID])
        let message = PushMessage(
            title: event.senderNick, body: event.content.isEmpty ? "사진" : event.content,
            data: ["roomId": event.roomID, "content": event.content, "chatId": event.chatID, "senderNick": event.senderNick]
        ).fitted()
        return try await enqueue(appID: event.appID, users: Array(absent), message: message, key: "chat:" + event.chatID)
    }
}
