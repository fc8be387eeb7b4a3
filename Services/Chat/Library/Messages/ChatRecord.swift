import ServiceKit

/// One stored message; `seq` is its place in the store (set when stored).
struct ChatRecord: Codable, Sendable {
    var seq: Int64?
    var id, roomID, senderID, content, files: String
    var clientID: String?
    var createdAt: Int64

    enum CodingKeys: String, CodingKey, CaseIterable {
        case seq, id, content, files
        case roomID = "room_id"
        case senderID = "sender_id"
        case clientID = "client_id"
        case createdAt = "created_at"
    }

    var fileList: [String] { JSONText.strings(files) ?? [] }
}
