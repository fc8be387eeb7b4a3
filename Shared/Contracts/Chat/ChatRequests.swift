/// `POST /v1/chats`.
public struct OpenRoomRequest: Codable, Sendable, Equatable {
    public var opponentID: String

    public init(opponentID: String) {
        self.opponentID = opponentID
    }

    enum CodingKeys: String, CodingKey {
        case opponentID = "opponent_id"
    }
}

/// `POST /v1/chats/{room_id}`: `client_id` makes a retry idempotent.
public struct SendChatRequest: Codable, Sendable, Equatable {
    public var content: String?
    public var files: [String]?
    public var clientID: String?

    public init(content: String?, files: [String]? = nil, clientID: String? = nil) {
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
public struct ReadPointerRequest: Codable, Sendable, Equatable {
    public var chatID: String

    public init(chatID: String) {
        self.chatID = chatID
    }

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id"
    }
}
