import Contracts
import ServiceClients
import ServiceKit

/// Records as API.md §8 shapes, with users from one batch member lookup per answer.
struct WorkspaceRenderer: Sendable {
    let members: AuthClient

    func users(_ ids: [String], appID: String, requestID: String) async throws -> [SlpUser] {
        let found = try await members.members(ids, appID, requestID)
        return ids.map { found.member($0) }
    }

    func detail(_ workspace: WorkspaceRecord, channels: [ChannelRecord], memberIDs: [String], requestID: String) async throws -> WorkspaceDetail {
        WorkspaceDetail(
            Self.workspace(workspace),
            WorkspaceContents(
                channels: channels.map(Self.channel), workspaceMembers: try await users(memberIDs, appID: workspace.appID, requestID: requestID)
            ))
    }

    func channelChats(_ records: [ChatRecord], channel: ChannelRecord, appID: String, requestID: String) async throws -> [ChannelChatAnswer] {
        let found = try await members.members(Array(Set(records.map(\.senderID))), appID, requestID)
        return records.map { Self.channelChat($0, channel: channel, user: found.member($0.senderID)) }
    }

    func dmRooms(_ rooms: [(room: RoomRecord, opponent: String)], appID: String, requestID: String) async throws -> [DMRoomAnswer] {
        let found = try await members.members(rooms.map(\.opponent), appID, requestID)
        return rooms.map { Self.dmRoom($0.room, user: found.member($0.opponent)) }
    }

    func dmChats(_ records: [ChatRecord], appID: String, requestID: String) async throws -> [DMChatAnswer] {
        let found = try await members.members(Array(Set(records.map(\.senderID))), appID, requestID)
        return records.map { Self.dmChat($0, user: found.member($0.senderID)) }
    }

    static func workspace(_ record: WorkspaceRecord) -> WorkspaceAnswer {
        WorkspaceAnswer(
            workspaceID: record.id, name: record.name, description: record.description, coverImage: record.coverImage,
            ownerID: record.ownerID, createdAt: GlintDate.string(fromMilliseconds: record.createdAt))
    }

    static func channel(_ record: ChannelRecord) -> ChannelAnswer {
        ChannelAnswer(
            channelID: record.roomID, name: record.name, description: record.description, coverImage: record.coverImage,
            ownerID: record.ownerID, createdAt: GlintDate.string(fromMilliseconds: record.createdAt))
    }

    static func channelChat(_ chat: ChatRecord, channel: ChannelRecord, user: SlpUser) -> ChannelChatAnswer {
        ChannelChatAnswer(
            channelID: channel.roomID, channelName: channel.name, chatID: chat.id, content: content(chat),
            createdAt: GlintDate.string(fromMilliseconds: chat.createdAt), files: chat.fileList, user: user)
    }

    static func dmRoom(_ room: RoomRecord, user: SlpUser) -> DMRoomAnswer {
        DMRoomAnswer(roomID: room.id, createdAt: GlintDate.string(fromMilliseconds: room.createdAt), user: user)
    }

    static func dmChat(_ chat: ChatRecord, user: SlpUser) -> DMChatAnswer {
        DMChatAnswer(
            dmID: chat.id, roomID: chat.roomID, content: content(chat), createdAt: GlintDate.string(fromMilliseconds: chat.createdAt),
            files: chat.fileList, user: user)
    }

    /// A message of files only has no content (null), not `""`.
    private static func content(_ chat: ChatRecord) -> String? { chat.content.isEmpty ? nil : chat.content }
}
