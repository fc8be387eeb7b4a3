import GRDB
import ServiceKit

/// One stored message.
struct ChatRecord: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "chat"

    var seq: Int64?
    var id: String
    var roomID: String
    var senderID: String
    var content: String
    var files: String
    var clientID: String?
    var createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case seq, id, content, files
        case roomID = "room_id"
        case senderID = "sender_id"
        case clientID = "client_id"
        case createdAt = "created_at"
    }

    enum Columns {
        static let seq = Column(CodingKeys.seq)
        static let id = Column(CodingKeys.id)
        static let roomID = Column(CodingKeys.roomID)
        static let senderID = Column(CodingKeys.senderID)
        static let clientID = Column(CodingKeys.clientID)
        static let createdAt = Column(CodingKeys.createdAt)
    }

    var fileList: [String] { JSONText.decode(files) ?? [] }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        seq = inserted.rowID
    }
}
