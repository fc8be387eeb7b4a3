import Contracts

/// Messages: stored idempotently by `client_id`, read back, searched.
protocol MessageStore: Sendable {
    /// In one transaction: checks the sender takes part in a room of `appID` of the kind `new`
    /// expects (`StoreError` `notFound` / `notPermitted`; a workspace member writing in a channel
    /// joins it), stores the message and the outbox event `event` makes of it, the room's
    /// participants and those of them with a socket on the room on another replica (read with the
    /// room where replicas share the store, `PresenceBoard`; none on one process). A retry with
    /// the same `client_id` answers the stored message (`created` false). `live` makes what the room's sockets are sent (nil: nothing), answered as
    /// `frame` for a new message; a store that replicas share also keeps it with the message for
    /// the other replicas' sockets (`LiveFrameListener`).
    func send(
        _ new: NewChat, appID: String, at time: Int64, live: (@Sendable (ChatRecord) -> LiveFrame)?,
        event: @escaping @Sendable (ChatRecord, _ participants: [String], _ presentElsewhere: [String]) -> ChatMessageEvent
    ) async throws -> (chat: ChatRecord, created: Bool, frame: LiveFrame?)
    /// Messages strictly after `after` (milliseconds), oldest first.
    func history(roomID: String, after: Int64?, limit: Int) async throws -> [ChatRecord]
    /// Messages strictly before `before` (milliseconds), newest first.
    func earlier(roomID: String, before: Int64, limit: Int) async throws -> [ChatRecord]
    /// Messages of the room containing `query`, newest first.
    func search(roomID: String, query: String, limit: Int) async throws -> [ChatRecord]
    /// Messages by their `seq`.
    func chats(seqs: [Int64]) async throws -> [Int64: ChatRecord]
    /// A message of the app by id (operators look messages up).
    func chat(id: String, appID: String) async throws -> ChatRecord?
}

/// A message to store.
struct NewChat: Sendable {
    var roomID: String
    var senderID: String
    var content: String
    var files: [String]
    var clientID: String?
    var kind = RoomKind.pair
}
