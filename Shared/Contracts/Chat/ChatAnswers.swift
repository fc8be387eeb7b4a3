/// API.md §3 **Chat**: one message; `content` is `""` when only files were sent.
package struct ChatAnswer: Codable, Sendable, Equatable {
    package var chatID: String
    package var roomID: String
    package var content: String
    package var createdAt: String
    package var updatedAt: String
    package var sender: UserInfo
    package var files: [String]

    package init(chatID: String, roomID: String, content: String, createdAt: String, updatedAt: String, sender: UserInfo, files: [String]) {
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
package struct ChatRoomAnswer: Codable, Sendable, Equatable {
    package var roomID: String
    package var createdAt: String
    package var updatedAt: String
    package var participants: [UserInfo]
    package var lastChat: ChatAnswer?

    package init(roomID: String, createdAt: String, updatedAt: String, participants: [UserInfo], lastChat: ChatAnswer?) {
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
package struct UnreadCountAnswer: Codable, Sendable, Equatable {
    package var unreadCount: Int

    package init(unreadCount: Int) {
        self.unreadCount = unreadCount
    }

    enum CodingKeys: String, CodingKey {
        case unreadCount = "unread_count"
    }
}

/// One row of `GET /v1/chats/unreads`.
package struct RoomUnreadCount: Codable, Sendable, Equatable {
    package var roomID: String
    package var count: Int

    package init(roomID: String, count: Int) {
        self.roomID = roomID
        self.count = count
    }

    enum CodingKeys: String, CodingKey {
        case roomID = "room_id"
        case count
    }
}
