/// API.md §3 **Chat**: one message; `content` is `""` when only files were sent.
public struct ChatAnswer: Codable, Sendable, Equatable {
    public var chatID: String
    public var roomID: String
    public var content: String
    public var createdAt: String
    public var updatedAt: String
    public var sender: UserInfo
    public var files: [String]

    public init(chatID: String, roomID: String, content: String, createdAt: String, updatedAt: String, sender: UserInfo, files: [String]) {
        self.chatID = chatID
        self.roomID = roomID
        self.content = content
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.sender = sender
        self.files = files
    }

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id"
        case roomID = "room_id"
        case content, createdAt, updatedAt, sender, files
    }
}

/// API.md §3 **ChatRoom**.
public struct ChatRoomAnswer: Codable, Sendable, Equatable {
    public var roomID: String
    public var createdAt: String
    public var updatedAt: String
    public var participants: [UserInfo]
    public var lastChat: ChatAnswer?

    public init(roomID: String, createdAt: String, updatedAt: String, participants: [UserInfo], lastChat: ChatAnswer?) {
        self.roomID = roomID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.participants = participants
        self.lastChat = lastChat
    }

    enum CodingKeys: String, CodingKey {
        case roomID = "room_id"
        case createdAt, updatedAt, participants, lastChat
    }
}

/// `PUT /v1/chats/{room_id}/read` answer.
public struct UnreadCountAnswer: Codable, Sendable, Equatable {
    public var unreadCount: Int

    public init(unreadCount: Int) {
        self.unreadCount = unreadCount
    }

    enum CodingKeys: String, CodingKey {
        case unreadCount = "unread_count"
    }
}

/// One row of `GET /v1/chats/unreads`.
public struct RoomUnreadCount: Codable, Sendable, Equatable {
    public var roomID: String
    public var count: Int

    public init(roomID: String, count: Int) {
        self.roomID = roomID
        self.count = count
    }

    enum CodingKeys: String, CodingKey {
        case roomID = "room_id"
        case count
    }
}
