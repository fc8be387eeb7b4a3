import SocketIO
import Synchronization

/// Which sockets receive which room's events: those on the room's namespace and those that
/// `join_room`ed it from another namespace. Who is present in a room (asked on every message) is
/// counted as sockets come and go, not gathered from the sockets each time.
final class RoomHub: Sendable {
    private struct State {
        var rooms: [String: [String: ChatSocket]] = [:]
        var memberships: [String: Set<String>] = [:]
        /// Per room: each signed-in user's number of sockets on it.
        var present: [String: [String: Int]] = [:]

        /// Whether the socket was its user's last on the room.
        @discardableResult
        mutating func remove(_ socket: ChatSocket, from roomID: String) -> Bool {
            guard rooms[roomID]?.removeValue(forKey: socket.id) != nil else { return false }
            if rooms[roomID]?.isEmpty == true { rooms.removeValue(forKey: roomID) }
            guard let userID = socket.caller.userID else { return false }
            let left = (present[roomID]?[userID] ?? 1) - 1
            present[roomID]?[userID] = left > 0 ? left : nil
            if present[roomID]?.isEmpty == true { present.removeValue(forKey: roomID) }
            return left <= 0
        }
    }

    private let state = Mutex(State())
    /// Told when a user's first socket joins a room or their last leaves it.
    private let presenceChanged: @Sendable () -> Void

    init(presenceChanged: @escaping @Sendable () -> Void = {}) {
        self.presenceChanged = presenceChanged
    }

    func subscribe(_ socket: ChatSocket, to roomID: String) {
        let arrived = state.withLock { state -> Bool in
            guard state.rooms[roomID, default: [:]].updateValue(socket, forKey: socket.id) == nil else { return false }
            state.memberships[socket.id, default: []].insert(roomID)
            guard let userID = socket.caller.userID else { return false }
            state.present[roomID, default: [:]][userID, default: 0] += 1
            return state.present[roomID]?[userID] == 1
        }
        if arrived { presenceChanged() }
    }

    func unsubscribe(_ socket: ChatSocket, from roomID: String) {
        let left = state.withLock { state in
            state.memberships[socket.id]?.remove(roomID)
            return state.remove(socket, from: roomID)
        }
        if left { presenceChanged() }
    }

    func unsubscribeAll(_ socket: ChatSocket) {
        let left = state.withLock { state in
            (state.memberships.removeValue(forKey: socket.id) ?? []).reduce(false) { left, roomID in state.remove(socket, from: roomID) || left }
        }
        if left { presenceChanged() }
    }

    /// Users with a socket on the room right now.
    func presentUsers(in roomID: String) -> Set<String> {
        state.withLock { Set(($0.present[roomID] ?? [:]).keys) }
    }

    /// Every room's present users, as (room, user) pairs.
    func presence() -> Set<RoomPresence> {
        state.withLock { state in
            Set(state.present.flatMap { room, users in users.keys.map { RoomPresence(roomID: room, userID: $0) } })
        }
    }

    /// Emits the frame to every socket of its room.
    func broadcast(_ frame: LiveFrame) {
        ChatSocket.broadcast(frame.event, json: frame.json, to: state.withLock { Array(($0.rooms[frame.roomID] ?? [:]).values) })
    }
}
