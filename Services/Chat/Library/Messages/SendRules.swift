import Contracts
import ServiceKit

/// What sending a message does, decided from what the store read of its room, whatever engine
/// keeps it: who may write (a participant; a workspace member writing in a channel joins it), a
/// retried `client_id` answered with the stored message, and message times strictly increasing
/// per room. Each store reads the room, asks, and writes what the answer says.
enum SendRules {
    /// What the rules need of the room, read in the send's transaction.
    struct Room: Sendable {
        var appID: String
        var kind: String
        var updatedAt: Int64
        /// Its participants, ordered by id.
        var participants: [String]
        /// Whether the sender is a member of the room's workspace (false outside workspaces).
        var senderIsWorkspaceMember: Bool
        /// The sender's message of this `client_id` in the room, when one is stored.
        var retried: ChatRecord?
    }

    enum Decision: Sendable {
        /// Store `chat`; the sender joins the room first when `joins`. `participants` include the sender.
        case store(ChatRecord, joins: Bool, participants: [String])
        /// A retry: answer the stored message, store nothing.
        case answerStored(ChatRecord)
    }

    /// `room` nil: no room of that id. Throws `StoreError` for a room of another app or kind
    /// (`notFound`) and a sender who may not write in it (`notPermitted`).
    static func decide(_ new: NewChat, appID: String, at time: Int64, room: Room?) throws -> Decision {
        guard let room, room.appID == appID, room.kind == new.kind.rawValue else { throw StoreError.notFound("room not found") }
        var participants = room.participants
        let joins = !participants.contains(new.senderID)
        if joins {
            guard new.kind == .channel, room.senderIsWorkspaceMember else { throw StoreError.notPermitted("not a participant of this room") }
            participants.append(new.senderID)
        }
        if let stored = room.retried { return .answerStored(stored) }
        return .store(chat(new, at: max(time, room.updatedAt + 1)), joins: joins, participants: participants)
    }

    /// Whether a room id can name a room at all (anything else is `notFound` without a read).
    static func check(roomID: String) throws {
        guard ObjectID.isValid(roomID) else { throw StoreError.notFound("room not found") }
    }

    private static func chat(_ new: NewChat, at createdAt: Int64) -> ChatRecord {
        ChatRecord(
            seq: nil, id: ObjectID.generate(), roomID: new.roomID, senderID: new.senderID, content: new.content,
            files: JSONText.encode(new.files), clientID: new.clientID, createdAt: createdAt
        )
    }
}
