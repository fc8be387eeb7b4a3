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

    /// The record's columns for SQL written by hand (on SQLite, not `*`: that would compute the
    /// generated search column of every row).
    static let selectedColumns = CodingKeys.allCases.map { "chat." + $0.rawValue }.joined(separator: ", ")

    var fileList: [String] { JSONText.strings(files) ?? [] }
}
