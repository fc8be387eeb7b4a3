import Contracts
import Foundation
import ServiceKit

/// Posting a message, the same in every kind of room: the checks, one transaction (the message
/// and its push event), then the room's sockets (the sender's included).
struct MessagePoster: Sendable {
    let messages: any MessageStore
    let hub: RoomHub
    /// Sends a stored message's frame (its `seq`) to the room's sockets: at once on one process's
    /// SQLite file; on PostgreSQL in its turn among every replica's messages (`LiveFrameListener`).
    let deliver: @Sendable (LiveFrame, _ seq: Int64) -> Void
    /// Tells the outbox relay a push event is waiting.
    let eventsWaiting: @Sendable () -> Void

    static let maxContentLength = 5_000
    static let maxFiles = 5

    static func check(content: String, fileCount: Int) throws {
        guard content.count <= maxContentLength else { throw ServiceError.badRequest("content is at most \(maxContentLength) characters") }
        guard fileCount <= maxFiles else { throw ServiceError.badRequest("at most \(maxFiles) files") }
        guard !content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || fileCount > 0 else {
            throw ServiceError.badRequest("content required unless files are sent")
        }
    }

    /// Stores `new` and answers `render` of it, which is also what the room's sockets receive.
    /// Users in `withheld` are neither notified nor sent it live: a namespace's sockets carry no
    /// identity to leave them out by, so then the message goes to no socket.
    func post<Answer: Encodable & Sendable>(
        _ new: NewChat, appID: String, senderNick: String, withheld: Set<String> = [], render: @escaping @Sendable (ChatRecord) -> Answer
    ) async throws -> Answer {
        try Self.check(content: new.content, fileCount: new.files.count)
        let present = hub.presentUsers(in: new.roomID)
        let live: (@Sendable (ChatRecord) -> LiveFrame)? =
            withheld.isEmpty
            ? { @Sendable chat in LiveFrame(roomID: new.roomID, event: new.kind.event, json: String(buffer: JSONCoding.encode(render(chat)))) } : nil
        // Participation, the message and its push event: one write transaction.
        let stored = try await messages.send(new, appID: appID, at: GlintDate.nowMilliseconds(), live: live) { chat, participants, presentElsewhere in
            // Who sees the room, on this replica or another, gets no push.
            let seeing = present.union(presentElsewhere)
            let others = participants.filter { $0 != new.senderID && !withheld.contains($0) }
            return ChatMessageEvent(
                appID: appID, roomID: new.roomID, chatID: chat.id, senderID: new.senderID, senderNick: senderNick, content: chat.content,
                files: new.files, recipients: others, present: others.filter { seeing.contains($0) },
                createdAt: GlintDate.string(fromMilliseconds: chat.createdAt)
            )
        }
        let answer = render(stored.chat)
        if stored.created {
            if let frame = stored.frame { deliver(frame, stored.chat.seq ?? 0) }
            eventsWaiting()
        }
        return answer
    }
}
