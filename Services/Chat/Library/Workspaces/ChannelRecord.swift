/// A channel: the workspace attributes of a `channel` room (same id).
struct ChannelRecord: Codable, Sendable, Equatable {
    var roomID, workspaceID, name: String
    var description, coverImage: String?
    var ownerID: String
    var createdAt: Int64
    /// The workspace's first channel: it cannot be deleted or left.
    var isDefault = false

    enum CodingKeys: String, CodingKey {
        case name, description
        case roomID = "room_id"
        case workspaceID = "workspace_id"
        case coverImage = "cover_image"
        case ownerID = "owner_id"
        case createdAt = "created_at"
        case isDefault = "is_default"
    }

    /// The name of the channel every workspace starts with.
    static let defaultName = "일반"
}
