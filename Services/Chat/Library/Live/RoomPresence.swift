/// A user with a socket on a room.
struct RoomPresence: Hashable, Sendable {
    var roomID: String
    var userID: String
}
