import Contracts
import ServiceClients
import ServiceKit

/// Records as API.md §3 shapes, with senders and participants from one batch user lookup.
struct ChatRenderer: Sendable {
    let users: AuthClient

    func chats(_ records: [ChatRecord], appID: String, requestID: String) async throws -> [ChatAnswer] {
        let found = try await users.users(Array(Set(records.map(\.senderID))), appID, requestID)
        return records.map { Self.answer($0, sender: found.info($0.senderID)) }
    }

    func rooms(
        _ rooms: [RoomRecord], participants: [String: [String]], lastChats: [Int64: ChatRecord], appID: String, requestID: String
    ) async throws -> [ChatRoomAnswer] {
        var ids = Set(participants.values.flatMap { $0 })
        ids.formUnion(lastChats.values.map(\.senderID))
        let found = try await users.users(Array(ids), appID, requestID)
        return rooms.map { room in
            ChatRoomAnswer(
                roomID: room.id,
                createdAt: GlintDate.string(fromMilliseconds: room.createdAt),
                updatedAt: GlintDate.string(fromMilliseconds: room.updatedAt),
                participants: (participants[room.id] ?? []).map { found.info($0) },
                lastChat: room.lastChatSeq.flatMap { lastChats[$0] }.map { Self.answer($0, sender: found.info($0.senderID)) }
            )
        }
    }

    static func answer(_ chat: ChatRecord, sender: UserInfo) -> ChatAnswer {
        let date = GlintDate.string(fromMilliseconds: chat.createdAt)
        return ChatAnswer(
            chatID: chat.id, roomID: chat.roomID, content: chat.content, createdAt: date, updatedAt: date, sender: sender, files: chat.fileList)
    }
}
