import Contracts
import Moderation
import ServiceKit

/// API.md §8 channels: any member of the workspace may read and write in any of its channels
/// (doing so joins it); the channel's owner or the workspace's owner may change or delete it.
struct ChannelService: WorkspaceConversation {
    let access: WorkspaceService
    let channels: any ChannelStore
    let messages: any MessageStore
    let poster: MessagePoster
    let renderer: WorkspaceRenderer
    /// Messages operators hid: left out of every history.
    let moderation: ContentModeration

    static let maxHistory = 1000

    func list(_ caller: AuthenticatedUser, workspace id: String, mine: Bool) async throws -> [ChannelAnswer] {
        _ = try await access.workspace(id, of: caller)
        let list = mine ? try await channels.channels(of: id, participant: caller.userID) : try await channels.channels(of: id)
        return list.map(WorkspaceRenderer.channel)
    }

    func create(_ caller: AuthenticatedUser, workspace id: String, _ body: NameDescriptionRequest) async throws -> ChannelAnswer {
        _ = try await access.workspace(id, of: caller)
        let channel = ChannelRecord(
            roomID: ObjectID.generate(), workspaceID: id, name: try WorkspaceService.name(body.name),
            description: try WorkspaceService.description(body.description), coverImage: nil, ownerID: caller.userID,
            createdAt: GlintDate.nowMilliseconds())
        try await channels.create(channel, appID: caller.appID)
        return WorkspaceRenderer.channel(channel)
    }

    func detail(_ caller: AuthenticatedUser, workspace id: String, channel channelID: String, requestID: String) async throws -> ChannelDetail {
        let channel = try await channel(caller, workspace: id, channel: channelID)
        return ChannelDetail(
            WorkspaceRenderer.channel(channel),
            ChannelMembers(
                channelMembers: try await renderer.users(try await channels.members(of: channelID), appID: caller.appID, requestID: requestID)
            ))
    }

    /// `""` or a missing value leaves a field as it is.
    func update(
        _ caller: AuthenticatedUser, workspace id: String, channel channelID: String, _ body: NameDescriptionRequest
    ) async throws -> ChannelAnswer {
        var channel = try await managed(caller, workspace: id, channel: channelID)
        if let name = body.name, !name.isEmpty { channel.name = try WorkspaceService.name(name) }
        if let description = body.description, !description.isEmpty { channel.description = try WorkspaceService.description(description) }
        try await channels.update(channel)
        return WorkspaceRenderer.channel(channel)
    }

    func delete(_ caller: AuthenticatedUser, workspace id: String, channel channelID: String) async throws {
        let channel = try await managed(caller, workspace: id, channel: channelID)
        guard !channel.isDefault else { throw ServiceError(.cannotLeave, "the workspace's first channel cannot be deleted") }
        try await channels.delete(channelID)
    }

    /// Leaves the channel (not the workspace's first: E15) and answers those the caller is still in.
    func exit(_ caller: AuthenticatedUser, workspace id: String, channel channelID: String) async throws -> [ChannelAnswer] {
        let channel = try await channel(caller, workspace: id, channel: channelID)
        guard !channel.isDefault else { throw ServiceError(.cannotLeave, "everyone stays in the workspace's first channel") }
        try await channels.leave(channelID, userID: caller.userID)
        return try await list(caller, workspace: id, mine: true)
    }

    /// Messages strictly after `after`, oldest first; reading joins the channel.
    func chats(
        _ caller: AuthenticatedUser, workspace id: String, conversation channelID: String, after: Int64?, requestID: String
    ) async throws -> [ChannelChatAnswer] {
        let channel = try await channel(caller, workspace: id, channel: channelID)
        try await channels.join(channelID, userID: caller.userID, appID: caller.appID)
        let hidden = try await moderation.hiddenIDs(.message, appID: caller.appID)
        let records = try await messages.history(roomID: channelID, after: after, limit: Self.maxHistory).filter { !hidden.contains($0.id) }
        return try await renderer.channelChats(records, channel: channel, appID: caller.appID, requestID: requestID)
    }

    func send(
        _ caller: AuthenticatedUser, workspace id: String, conversation channelID: String, content: String, files: [String], requestID: String
    ) async throws -> ChannelChatAnswer {
        let channel = try await channel(caller, workspace: id, channel: channelID)
        let sender = try await renderer.users([caller.userID], appID: caller.appID, requestID: requestID)[0]
        return try await poster.post(
            NewChat(roomID: channelID, senderID: caller.userID, content: content, files: files, clientID: nil, kind: .channel),
            appID: caller.appID, senderNick: sender.nickname
        ) { WorkspaceRenderer.channelChat($0, channel: channel, user: sender) }
    }

    func unreads(
        _ caller: AuthenticatedUser, workspace id: String, conversation channelID: String, after: Int64?, requestID _: String
    ) async throws -> UnreadsAnswer {
        guard ObjectID.isValid(id), ObjectID.isValid(channelID) else { throw ServiceError.notFound("channel not found") }
        let (channel, count) = try await channels.unreads(channel: channelID, workspace: id, member: caller.userID, appID: caller.appID, after: after)
        return UnreadsAnswer(roomID: channel.roomID, channelID: channel.roomID, name: channel.name, count: count)
    }

    /// Members of the workspace may read and write in its channels.
    func admit(_ caller: AuthenticatedUser, workspace id: String, conversation channelID: String) async throws {
        _ = try await channel(caller, workspace: id, channel: channelID)
    }

    /// The channel of a workspace the caller belongs to.
    func channel(_ caller: AuthenticatedUser, workspace id: String, channel channelID: String) async throws -> ChannelRecord {
        _ = try await access.workspace(id, of: caller)
        guard ObjectID.isValid(channelID) else { throw ServiceError.notFound("channel not found") }
        return try await channels.channel(channelID, workspace: id)
    }

    /// The channel, if the caller owns it or its workspace (E14 otherwise).
    private func managed(_ caller: AuthenticatedUser, workspace id: String, channel channelID: String) async throws -> ChannelRecord {
        let workspace = try await access.workspace(id, of: caller)
        guard ObjectID.isValid(channelID) else { throw ServiceError.notFound("channel not found") }
        let channel = try await channels.channel(channelID, workspace: id)
        guard channel.ownerID == caller.userID || workspace.ownerID == caller.userID else {
            throw ServiceError(.notPermitted, "only the channel's or the workspace's owner may do that")
        }
        return channel
    }
}
