/// Channels and DM rooms of workspaces (both are rooms), and unread counts.
protocol ChannelStore: Sendable {
    /// The channel's room and the channel, the creator its first member; `StoreError.conflict`
    /// when the workspace has a channel of that name.
    func create(_ channel: ChannelRecord, appID: String) async throws
    /// The workspace's channels, oldest first.
    func channels(of workspaceID: String) async throws -> [ChannelRecord]
    /// Those the user is in.
    func channels(of workspaceID: String, participant userID: String) async throws -> [ChannelRecord]
    /// `notFound` when the workspace has no such channel.
    func channel(_ id: String, workspace workspaceID: String) async throws -> ChannelRecord
    /// `conflict` when the new name is taken in the workspace.
    func update(_ channel: ChannelRecord) async throws
    /// The channel with its messages.
    func delete(_ channelID: String) async throws
    /// Member ids in the order they joined.
    func members(of channelID: String) async throws -> [String]
    func join(_ channelID: String, userID: String, appID: String) async throws
    func leave(_ channelID: String, userID: String) async throws

    /// The DM room of the pair in the workspace, made on first use (the same room every time).
    func openDM(workspaceID: String, appID: String, userID: String, opponentID: String, at time: Int64) async throws -> RoomRecord
    /// The user's DM rooms in the workspace with the other person, newest activity first.
    func dms(workspaceID: String, userID: String) async throws -> [(room: RoomRecord, opponent: String)]
    /// The DM room with the other person: `notFound` when the workspace has no such room,
    /// `notPermitted` when the user is not in it.
    func dm(_ roomID: String, workspace workspaceID: String, participant userID: String) async throws -> (room: RoomRecord, opponent: String)

    /// The channel (`notFound` unless the user is a member of its active workspace of `appID`)
    /// and others' messages in it strictly after `after`, in one read: the app asks this for
    /// every channel it lists.
    func unreads(
        channel id: String, workspace workspaceID: String, member userID: String, appID: String, after: Int64?
    ) async throws -> (channel: ChannelRecord, count: Int)
    /// Messages of the room strictly after `after` (milliseconds; nil = all) not sent by any of
    /// `excluded`, counted from an index.
    func unreadCount(roomID: String, after: Int64?, excluding excluded: Set<String>) async throws -> Int
}
