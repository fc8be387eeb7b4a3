import Contracts
import Foundation
import Moderation
import ServiceKit

/// The §3 operations: rooms, history, sending (with live delivery and the push event), search,
/// read pointers.
struct ConversationService: Sendable {
    let rooms: any RoomStore
    let messages: any MessageStore
    let renderer: ChatRenderer
    let poster: MessagePoster
    /// Messages operators hid: left out of every history, search and room list.
    let moderation: ContentModeration

    static let filePathPrefix = "/data/chats/"

    func open(_ caller: AuthenticatedUser, opponentID: String, requestID: String) async throws -> ChatRoomAnswer {
        guard ObjectID.isValid(opponentID) else { throw ServiceError.badRequest("opponent_id must be a user id") }
        guard opponentID != caller.userID else { throw ServiceError.badRequest("cannot open a room with yourself") }
        let found = try await renderer.users.users([opponentID], caller.appID, requestID)
        guard found[opponentID] != nil else { throw ServiceError.notFound("unknown opponent") }
        let room = try await rooms.open(appID: caller.appID, userID: caller.userID, opponentID: opponentID, at: GlintDate.nowMilliseconds())
        return try await render([room], appID: caller.appID, requestID: requestID)[0]
    }

    func list(_ caller: AuthenticatedUser, requestID: String) async throws -> [ChatRoomAnswer] {
        try await render(try await rooms.rooms(of: caller.userID, appID: caller.appID, limit: 1000), appID: caller.appID, requestID: requestID)
    }

    private func render(_ list: [RoomRecord], appID: String, requestID: String) async throws -> [ChatRoomAnswer] {
        let participants = try await rooms.participants(of: list.map(\.id))
        let hidden = try await moderation.hiddenIDs(.message, appID: appID)
        let lastChats = try await messages.chats(seqs: list.compactMap(\.lastChatSeq)).filter { !hidden.contains($0.value.id) }
        return try await renderer.rooms(list, participants: participants, lastChats: lastChats, appID: appID, requestID: requestID)
    }

    /// Messages after `after`, without those of users the caller blocked (API.md §1).
    func history(_ caller: AuthenticatedUser, roomID: String, after: Int64?, limit: Int, requestID: String) async throws -> [ChatAnswer] {
        _ = try await rooms.room(roomID, participant: caller.userID, appID: caller.appID)
        let blocked = try await renderer.users.blocked(caller.userID, caller.appID, requestID)
        let hidden = try await moderation.hiddenIDs(.message, appID: caller.appID)
        let records = try await messages.history(roomID: roomID, after: after, limit: limit).filter {
            !blocked.contains($0.senderID) && !hidden.contains($0.id)
        }
        return try await renderer.chats(records, appID: caller.appID, requestID: requestID)
    }

    func search(_ caller: AuthenticatedUser, roomID: String, query: String, limit: Int, requestID: String) async throws -> [ChatAnswer] {
        _ = try await rooms.room(roomID, participant: caller.userID, appID: caller.appID)
        let blocked = try await renderer.users.blocked(caller.userID, caller.appID, requestID)
        let hidden = try await moderation.hiddenIDs(.message, appID: caller.appID)
        let records = try await messages.search(roomID: roomID, query: query, limit: limit).filter {
            !blocked.contains($0.senderID) && !hidden.contains($0.id)
        }
        return try await renderer.chats(records, appID: caller.appID, requestID: requestID)
    }

    /// Stores the message, emits it as `chat` to the room's sockets (the sender's included) and
    /// leaves the push event in the outbox, in the same transaction as the message.
    func send(_ caller: AuthenticatedUser, roomID: String, _ body: SendChatRequest, requestID: String) async throws -> ChatAnswer {
        let files = body.files ?? []
        guard files.allSatisfy(Self.isChatFilePath) else { throw ServiceError.badRequest("files must be paths answered by the chat files upload") }
        if let clientID = body.clientID, clientID.isEmpty || clientID.utf8.count > 64 {
            throw ServiceError.badRequest("client_id must be 1 to 64 characters")
        }
        try MessagePoster.check(content: body.content ?? "", fileCount: files.count)
        let sender = try await renderer.users.users([caller.userID], caller.appID, requestID).info(caller.userID)
        return try await poster.post(
            NewChat(roomID: roomID, senderID: caller.userID, content: body.content ?? "", files: files, clientID: body.clientID),
            appID: caller.appID, senderNick: sender.nick
        ) { ChatRenderer.answer($0, sender: sender) }
    }

    func markRead(_ caller: AuthenticatedUser, roomID: String, chatID: String) async throws -> UnreadCountAnswer {
        guard ObjectID.isValid(chatID) else { throw ServiceError.badRequest("chat_id must be a chat id") }
        _ = try await rooms.room(roomID, participant: caller.userID, appID: caller.appID)
        return UnreadCountAnswer(unreadCount: try await rooms.markRead(roomID: roomID, userID: caller.userID, chatID: chatID))
    }

    func unreads(_ caller: AuthenticatedUser) async throws -> [RoomUnreadCount] {
        try await rooms.unreadCounts(userID: caller.userID, appID: caller.appID)
    }

    func requireParticipant(_ caller: AuthenticatedUser, roomID: String) async throws {
        _ = try await rooms.room(roomID, participant: caller.userID, appID: caller.appID)
    }

    /// A path the chat upload answered: `/data/chats/<name>` with a plain file name.
    static func isChatFilePath(_ path: String) -> Bool {
        guard path.hasPrefix(filePathPrefix), path.utf8.count <= 200 else { return false }
        let name = path.dropFirst(filePathPrefix.count)
        return !name.isEmpty && !name.hasPrefix(".")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
    }
}
