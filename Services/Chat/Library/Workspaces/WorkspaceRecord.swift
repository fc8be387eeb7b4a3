/// A workspace (API.md §8). `pending` while its coins are being spent.
struct WorkspaceRecord: Codable, Sendable, Equatable {
    enum State: String, Codable, Sendable {
        case pending, active
    }

    var id, appID, name: String
    var description: String?
    var coverImage, ownerID: String
    var state: State
    var createdAt: Int64

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, description, state
        case appID = "app_id"
        case coverImage = "cover_image"
        case ownerID = "owner_id"
        case createdAt = "created_at"
    }

    /// What the purchase of this workspace is called in the wallet: one spend per workspace.
    var spendKey: String { "workspace_" + id }
}

/// A user's membership of a workspace.
struct WorkspaceMemberRecord: Codable, Sendable {
    var workspaceID, userID, appID: String
    var joinedAt: Int64

    enum CodingKeys: String, CodingKey {
        case workspaceID = "workspace_id"
        case userID = "user_id"
        case appID = "app_id"
        case joinedAt = "joined_at"
    }
}
