import Contracts

/// Rooms, their participants and read pointers.
protocol RoomStore: Sendable {
    /// The room of this pair, created on first use (the same room every time).
    func open(appID: String, userID: String, opponentID: String, at time: Int64) async throws -> RoomRecord
    /// Any app's room (sockets without a key are judged by the room's app).
    func room(_ id: String) async throws -> RoomRecord?
    /// The 1:1 room if `userID` of `appID` takes part in it: `StoreError.notFound` when there is no
    /// such room in the app, `notPermitted` when the user is not in it.
    func room(_ id: String, participant userID: String, appID: String) async throws -> RoomRecord
    func isParticipant(roomID: String, userID: String) async throws -> Bool
    /// Participant ids of each room.
    func participants(of roomIDs: [String]) async throws -> [String: [String]]
    /// The user's 1:1 rooms, newest activity first.
    func rooms(of userID: String, appID: String, limit: Int) async throws -> [RoomRecord]
    /// Moves the read pointer forward to `chatID` (never back; `notFound` for a chat not in the
    /// room) and answers what is still unread.
    func markRead(roomID: String, userID: String, chatID: String) async throws -> Int
    /// Others' messages after the user's read pointer, per 1:1 room of the user.
    func unreadCounts(userID: String, appID: String) async throws -> [RoomUnreadCount]
}
