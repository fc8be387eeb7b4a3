import Contracts
import Moderation
import Storage

extension ContentCatalog {
    /// Chat messages, as operators see them: one in its room with the three before and after it.
    static func chat(_ messages: any MessageStore, engine: StoreEngine) -> ContentCatalog {
        ContentCatalog(
            find: { _, id, appID in
                try await messages.chat(id: id, appID: appID).map {
                    Found(authorID: $0.senderID, preview: $0.content, files: $0.fileList, createdAt: $0.createdAt)
                }
            },
            authored: { _, authorID, appID, limit in
                try await AuthoredRows(
                    from: "chat JOIN room ON room.id = chat.room_id", idColumn: "chat.id", authorColumn: "chat.sender_id",
                    appColumn: "room.app_id", timeColumn: "chat.created_at"
                ).newest(on: engine, authorID: authorID, appID: appID, limit: limit)
            },
            around: { id, appID in
                guard let message = try await messages.chat(id: id, appID: appID) else { return [] }
                let before = try await messages.earlier(roomID: message.roomID, before: message.createdAt, limit: 3)
                let after = try await messages.history(roomID: message.roomID, after: message.createdAt, limit: 3)
                return before.reversed().map(\.id) + [id] + after.map(\.id)
            })
    }
}
