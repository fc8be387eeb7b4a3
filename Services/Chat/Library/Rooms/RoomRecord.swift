/// A 1:1 room.
struct RoomRecord: Codable, Sendable {
    var id, appID, pairKey: String
    var createdAt, updatedAt: Int64
    var lastChatSeq: Int64?

    enum CodingKeys: String, CodingKey {
        case id
        case appID = "app_id"
        case pairKey = "pair_key"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastChatSeq = "last_chat_seq"
    }

    static func pairKey(_ a: String, _ b: String) -> String { a < b ? a + ":" + b : b + ":" + a }
}

/// A user's membership of a room and read pointer.
struct ParticipantRecord: Codable, Sendable {
    var roomID, userID, appID: String
    var readAt: Int64

    enum CodingKeys: String, CodingKey {
        case roomID = "room_id"
        case userID = "user_id"
        case appID = "app_id"
        case readAt = "read_at"
    }
}
