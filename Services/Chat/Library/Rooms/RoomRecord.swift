/// What a room is: a §3 1:1 room, or a §8 workspace's channel or DM room.
enum RoomKind: String, Codable, Sendable {
    case pair, channel, dm

    /// The Socket.IO event its messages are emitted as (API.md §3, §8).
    var event: String {
        switch self {
        case .pair: "chat"
        case .channel: "channel"
        case .dm: "dm"
        }
    }
}

/// A room: the unit of messages, participants and realtime delivery.
struct RoomRecord: Codable, Sendable {
    var id, appID: String
    /// Unique within the app: the two participants' ids (a 1:1 or DM room, one per pair) or the
    /// channel's own id.
    var pairKey: String
    var createdAt, updatedAt: Int64
    var lastChatSeq: Int64?
    var kind = RoomKind.pair
    var workspaceID: String?

    enum CodingKeys: String, CodingKey {
        case id, kind
        case workspaceID = "workspace_id"
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
