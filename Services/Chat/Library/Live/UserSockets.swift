import Contracts
import Synchronization

/// Every signed-in socket by its user, whatever its namespace: a banned user's connections are
/// found and closed here (`close(_:)`), including those on `/` that joined no room.
final class UserSockets: Sendable {
    private struct Key: Hashable {
        var appID, userID: String
    }

    private let sockets = Mutex<[Key: [String: ChatSocket]]>([:])

    init() {}

    func connected(_ socket: ChatSocket) {
        guard let userID = socket.caller.userID else { return }
        sockets.withLock { $0[Key(appID: socket.caller.appID, userID: userID), default: [:]][socket.id] = socket }
    }

    func disconnected(_ socket: ChatSocket) {
        guard let userID = socket.caller.userID else { return }
        let key = Key(appID: socket.caller.appID, userID: userID)
        sockets.withLock { sockets in
            sockets[key]?.removeValue(forKey: socket.id)
            if sockets[key]?.isEmpty == true { sockets.removeValue(forKey: key) }
        }
    }

    /// Disconnects every socket of the users; answers how many were open.
    @discardableResult
    func close(_ users: [RevokedUser]) -> Int {
        let closing = sockets.withLock { sockets in users.flatMap { (sockets[Key(appID: $0.appID, userID: $0.userID)] ?? [:]).values } }
        for socket in closing { socket.disconnect(reason: "user banned") }
        return closing.count
    }
}
