import Contracts
import Moderation
import ServiceClients
import ServiceKit

/// API.md §8 direct messages: one room per pair of members per workspace, participants only.
/// Blocks (§1) hold: a blocked user's messages are neither delivered to nor shown to the blocker.
struct DirectMessageService: WorkspaceConversation {
    let access: WorkspaceService
    let workspaces: any WorkspaceStore
    let channels: any ChannelStore
    let messages: any MessageStore
    let poster: MessagePoster
    let renderer: WorkspaceRenderer
    let users: AuthClient
    /// Messages operators hid: left out of every history.
    let moderation: ContentModeration

    func list(_ caller: AuthenticatedUser, workspace id: String, requestID: String) async throws -> [DMRoomAnswer] {
        _ = try await access.workspace(id, of: caller)
        return try await renderer.dmRooms(try await channels.dms(workspaceID: id, userID: caller.userID), appID: caller.appID, requestID: requestID)
    }

    func open(_ caller: AuthenticatedUser, workspace id: String, opponentID: String, requestID: String) async throws -> DMRoomAnswer {
        _ = try await access.workspace(id, of: caller)
        guard opponentID != caller.userID else { throw ServiceError.badRequest("cannot open a room with yourself") }
        guard ObjectID.isValid(opponentID), try await workspaces.isMember(id, userID: opponentID) else {
            throw ServiceError.notFound("the opponent is not a member of this workspace")
        }
        let room = try await channels.openDM(
            workspaceID: id, appID: caller.appID, userID: caller.userID, opponentID: opponentID, at: GlintDate.nowMilliseconds())
        return try await renderer.dmRooms([(room, opponentID)], appID: caller.appID, requestID: requestID)[0]
    }

    /// Messages strictly after `after`, oldest first, without those of users the caller blocked.
    func chats(
        _ caller: AuthenticatedUser, workspace id: String, conversation roomID: String, after: Int64?, requestID: String
    ) async throws -> [DMChatAnswer] {
        _ = try await room(caller, workspace: id, room: roomID)
        let blocked = try await users.blocked(caller.userID, caller.appID, requestID)
        let hidden = try await moderation.hiddenIDs(.message, appID: caller.appID)
        let records = try await messages.history(roomID: roomID, after: after, limit: ChannelService.maxHistory).filter {
            !blocked.contains($0.senderID) && !hidden.contains($0.id)
        }
        return try await renderer.dmChats(records, appID: caller.appID, requestID: requestID)
    }

    func send(
        _ caller: AuthenticatedUser, workspace id: String, conversation roomID: String, content: String, files: [String], requestID: String
    ) async throws -> DMChatAnswer {
        let opponent = try await room(caller, workspace: id, room: roomID).opponent
        let sender = try await renderer.users([caller.userID], appID: caller.appID, requestID: requestID)[0]
        let blockedBySender = try await users.blocked(opponent, caller.appID, requestID).contains(caller.userID)
        return try await poster.post(
            NewChat(roomID: roomID, senderID: caller.userID, content: content, files: files, clientID: nil, kind: .dm),
            appID: caller.appID, senderNick: sender.nickname, withheld: blockedBySender ? [opponent] : []
        ) { WorkspaceRenderer.dmChat($0, user: sender) }
    }

    func unreads(
        _ caller: AuthenticatedUser, workspace id: String, conversation roomID: String, after: Int64?, requestID: String
    ) async throws -> UnreadsAnswer {
        _ = try await room(caller, workspace: id, room: roomID)
        let blocked = try await users.blocked(caller.userID, caller.appID, requestID)
        return UnreadsAnswer(
            roomID: roomID, count: try await channels.unreadCount(roomID: roomID, after: after, excluding: blocked.union([caller.userID])))
    }

    /// The room's two participants may read and write in it.
    func admit(_ caller: AuthenticatedUser, workspace id: String, conversation roomID: String) async throws {
        _ = try await room(caller, workspace: id, room: roomID)
    }

    /// A DM room of a workspace the caller belongs to, which the caller is in (E14 otherwise).
    func room(_ caller: AuthenticatedUser, workspace id: String, room roomID: String) async throws -> (room: RoomRecord, opponent: String) {
        _ = try await access.workspace(id, of: caller)
        return try await channels.dm(roomID, workspace: id, participant: caller.userID)
    }
}
