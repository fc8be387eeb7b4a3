import SocketIO
import Synchronization

/// Which sockets receive which room's events: those on the room's namespace and those that
/// `join_room`ed it from another namespace.
final class RoomHub: Sendable {
    private struct State {
        var rooms: [String: [String: ChatSocket]] = [:]
        var memberships: [String: Set<String>] = [:]
    }

    private let state = Mutex(State())

    func subscribe(_ socket: ChatSocket, to roomID: String) {
        state.withLock { state in
            state.rooms[roomID, default: [:]][socket.id] = socket
            state.memberships[socket.id, default: []].insert(roomID)
        }
    }

    func unsubscribe(_ socket: ChatSocket, from roomID: String) {
        state.withLock { state in
            state.rooms[roomID]?.removeValue(forKey: socket.id)
            if state.rooms[roomID]?.isEmpty == true { state.rooms.removeValue(forKey: roomID) }
            state.memberships[socket.id]?.remove(roomID)
        }
    }

    func unsubscribeAll(_ socket: ChatSocket) {
        state.withLock { state in
            for roomID in state.memberships.removeValue(forKey: socket.id) ?? [] {
                state.rooms[roomID]?.removeValue(forKey: socket.id)
                if state.rooms[roomID]?.isEmpty == true { state.rooms.removeValue(forKey: roomID) }
            }
        }
    }

    /// Users with a socket on the room right now.
    func presentUsers(in roomID: String) -> Set<String> {
        state.withLock { Set(($0.rooms[roomID] ?? [:]).values.compactMap(\.caller.userID)) }
    }

    /// Emits `event` with one JSON argument (already encoded) to every socket of the room.
    func broadcast(roomID: String, event: String, json: String) {
        ChatSocket.broadcast(event, json: json, to: state.withLock { Array(($0.rooms[roomID] ?? [:]).values) })
    }
}
