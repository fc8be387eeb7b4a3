/// chat-svc → push-svc (through chat-svc's outbox): a message was stored. `recipients` are the
/// room's participants but the sender; `present` are those whose socket was on the room at that
/// moment (push-svc notifies neither the sender nor them).
package struct ChatMessageEvent: Codable, Sendable, Equatable {
    package static let topic = "push.chat-message"
    /// At most this many a call to push-svc (`InternalEndpoints.Push.chatMessages`).
    package static let maxPerCall = 100

    package var appID: String
    package var roomID: String
    package var chatID: String
    package var senderID: String
    package var senderNick: String
    package var content: String
    package var files: [String]
    package var recipients: [String]
    package var present: [String]
    package var createdAt: String

    package init(
        appID: String, roomID: String, chatID: String, senderID: String, senderNick: String, content: String, files: [String],
        recipients: [String], present: [String], createdAt: String
    ) {
        self.appID = appID
        self.roomID = roomID
        self.chatID = chatID
        self.senderID = senderID
        self.senderNick = senderNick
        self.content = content
        self.files = files
        self.recipients = recipients
        self.present = present
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case roomID = "room_id"
        case chatID = "chat_id"
        case senderID = "sender_id"
        case senderNick = "sender_nick"
        case content, files, recipients, present
        case createdAt = "created_at"
    }
}
