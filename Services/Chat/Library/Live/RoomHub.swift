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

        mutating func remove(_ socket: ChatSocket, from roomID: String) {
            guard rooms[roomID]?.removeValue(forKey: socket.id) != nil else { return }
            if rooms[roomID]?.isEmpty == true { rooms.removeValue(forKey: roomID) }
            guard let userID = socket.caller.userID else { return }
            let left = (present[roomID]?[userID] ?? 1) - 1
            present[roomID]?[userID] = left > 0 ? left : nil
            if present[roomID]?.isEmpty == true { present.removeValue(forKey: roomID) }
        }
    }

    private let state = Mutex(State())

    func subscribe(_ socket: ChatSocket, to roomID: String) {
        state.withLock { state in
            guard state.rooms[roomID, default: [:]].updateValue(socket, forKey: socket.id) == nil else { return }
            state.memberships[socket.id, default: []].insert(roomID)
            if let userID = socket.caller.userID { state.present[roomID, default: [:]][userID, default: 0] += 1 }
        }
    }

    func unsubscribe(_ socket: ChatSocket, from roomID: String) {
        state.withLock { state in
            state.remove(socket, from: roomID)
            state.memberships[socket.id]?.remove(roomID)
        }
    }

    func unsubscribeAll(_ socket: ChatSocket) {
        state.withLock { state in
            for roomID in state.memberships.removeValue(forKey: socket.id) ?? [] { state.remove(socket, from: roomID) }
        }
    }

    /// Users with a socket on the room right now.
    func presentUsers(in roomID: String) -> Set<String> {
        state.withLock { Set(($0.present[roomID] ?? [:]).keys) }
    }

    /// Emits the frame to every socket of its room.
    func broadcast(_ frame: LiveFrame) {
        ChatSocket.broadcast(frame.event, json: frame.json, to: state.withLock { Array(($0.rooms[frame.roomID] ?? [:]).values) })
    }
}
