/// What a room's sockets are sent for one message: the event and its one JSON argument.
struct LiveFrame: Sendable, Equatable {
    var roomID, event, json: String
}
