/// Workspaces and their members. Reads see active workspaces only.
protocol WorkspaceStore: Sendable {
    /// Takes the name for a new, still pending (invisible) workspace: `StoreError.conflict` when
    /// its owner already has a workspace of that name.
    func reserve(_ workspace: WorkspaceRecord) async throws
    /// In one transaction: the pending workspace becomes active, with its owner as its member and
    /// its default channel (the owner in it). `notFound` when the reservation was given up meanwhile.
    func activate(_ workspaceID: String, defaultChannel: ChannelRecord) async throws -> WorkspaceRecord
    /// Drops a pending workspace (its purchase failed or was given up); active ones stay.
    func abandon(_ workspaceID: String) async throws
    /// Pending workspaces created before `time`, oldest first.
    func pending(before time: Int64, limit: Int) async throws -> [WorkspaceRecord]

    /// The workspaces the user belongs to, oldest first.
    func workspaces(of userID: String, appID: String) async throws -> [WorkspaceRecord]
    /// The workspace if the user belongs to it; `notFound` otherwise (outsiders cannot see it).
    func workspace(_ id: String, member userID: String, appID: String) async throws -> WorkspaceRecord
    func isMember(_ workspaceID: String, userID: String) async throws -> Bool
    /// Member ids in the order they joined.
    func members(of workspaceID: String) async throws -> [String]
    /// Saves name, description and cover; `conflict` when the owner has another of that name.
    func update(_ workspace: WorkspaceRecord) async throws
    /// The workspace with its channels, DM rooms, messages and members.
    func delete(_ workspaceID: String) async throws
    /// A new member, who also joins the default channel; `conflict` when already a member.
    func addMember(_ workspaceID: String, userID: String, appID: String, at time: Int64) async throws
    /// Hands the workspace to a member (`notFound` for a non-member, `conflict` when they own one of that name).
    func transfer(_ workspaceID: String, to userID: String) async throws -> WorkspaceRecord
    /// Removes a member from the workspace and from its channels.
    func leave(_ workspaceID: String, userID: String) async throws
}
