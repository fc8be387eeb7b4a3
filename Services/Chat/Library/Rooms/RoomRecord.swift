import GRDB

/// A 1:1 room.
struct RoomRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "room"

    var id: String
    var appID: String
    var pairKey: String
    var createdAt: Int64
    var updatedAt: Int64
    var lastChatSeq: Int64?

    enum CodingKeys: String, CodingKey {
        case id
        case appID = "app_id"
        case pairKey = "pair_key"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastChatSeq = "last_chat_seq"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let appID = Column(CodingKeys.appID)
        static let pairKey = Column(CodingKeys.pairKey)
        static let updatedAt = Column(CodingKeys.updatedAt)
    }

    static func pairKey(_ a: String, _ b: String) -> String { a < b ? a + ":" + b : b + ":" + a }
}

/// A user's membership of a room and read pointer.
struct ParticipantRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "participant"

    var roomID: String
    var userID: String
    var appID: String
    var readAt: Int64

    enum CodingKeys: String, CodingKey {
        case roomID = "room_id"
        case userID = "user_id"
        case appID = "app_id"
        case readAt = "read_at"
    }

    enum Columns {
        static let roomID = Column(CodingKeys.roomID)
        static let userID = Column(CodingKeys.userID)
        static let appID = Column(CodingKeys.appID)
    }
}
