/// `POST /v1/chats`.
package struct OpenRoomRequest: Codable, Sendable, Equatable {
    package var opponentID: String

    package init(opponentID: String) {
        self.opponentID = opponentID
    }

    enum CodingKeys: String, CodingKey {
        case opponentID = "opponent_id"
    }
}

/// `POST /v1/chats/{room_id}`: `client_id` makes a retry idempotent.
package struct SendChatRequest: Codable, Sendable, Equatable {
    package var content: String?
    package var files: [String]?
    package var clientID: String?

    package init(content: String?, files: [String]? = nil, clientID: String? = nil) {
        self.content = content
        self.files = files
        self.clientID = clientID
    }

    enum CodingKeys: String, CodingKey {
        case content, files
        case clientID = "client_id"
    }
}

/// `PUT /v1/chats/{room_id}/read`.
package struct ReadPointerRequest: Codable, Sendable, Equatable {
    package var chatID: String

    package init(chatID: String) {
        self.chatID = chatID
    }

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id"
    }
}
