import Logging
import ServiceClients
import ServiceKit
import SocketIO

/// The chat rules of Socket.IO (API.md §3, §8): namespaces `/chats-{room_id}` (and `/` for
/// `join_room`), `/ws-channel-{channel_id}` and `/ws-dm-{room_id}`; admission by participation
/// (for a channel, by workspace membership) or, without a token, by the room's app flag;
/// `join_room` / `leave_room` / `ping`; client-emitted `chat` / `send_message` ignored.
struct ChatRealtime: SocketApplication {
    let rooms: any RoomStore
    let workspaces: any WorkspaceStore
    let verifier: AccessTokenVerifier
    let apps: AuthClient
    let hub: RoomHub
    /// Signed-in sockets by user, closed when their user is banned.
    let users: UserSockets
    let logger: Logger

    /// Each kind of room's namespace prefix; the rest of the namespace is the room id.
    static let namespacePrefixes: [(prefix: String, kind: RoomKind)] = [("/chats-", .pair), ("/ws-channel-", .channel), ("/ws-dm-", .dm)]

    static func room(of namespace: String) -> (id: String, kind: RoomKind)? {
        for (prefix, kind) in namespacePrefixes where namespace.hasPrefix(prefix) {
            return (String(namespace.dropFirst(prefix.count)), kind)
        }
        return nil
    }

    func authorize(namespace: String, auth: JSONValue?, handshake: EngineHandshake) async -> Result<ChatCaller, SocketRefusal> {
        do {
            var caller: ChatCaller?
            if let token = AccessTokenMiddleware.token(fromHeader: auth?["token"]?.string) ?? handshake.token {
                let user = try await verifier.verify(token)
                if let appID = handshake.appID, appID != user.appID { return .failure(SocketRefusal("access token belongs to another app")) }
                caller = ChatCaller(appID: user.appID, userID: user.userID)
            }
            if namespace == "/" {
                if let caller { return .success(caller) }
                guard let appID = handshake.appID, try await apps.appFlags(appID)?.socketAuthOptional == true else {
                    return .failure(SocketRefusal("authentication required"))
                }
                return .success(ChatCaller(appID: appID, userID: nil))
            }
            guard let room = Self.room(of: namespace) else { return .failure(.invalidNamespace) }
            return try await admit(caller ?? handshake.appID.map { ChatCaller(appID: $0, userID: nil) }, to: room.id, kind: room.kind)
        } catch let error as ServiceError {
            return .failure(SocketRefusal(error.message))
        } catch {
            logger.warning("socket admission failed", metadata: ["namespace": "\(namespace)", "error": "\(error)"])
            return .failure(SocketRefusal("temporarily unavailable"))
        }
    }

    /// One rule for a CONNECT to a room's namespace and for `join_room`: a user must take part
    /// in the room (be a member of a channel's workspace); a socket without a user only
    /// receives, and only rooms of an app with `socket_auth_optional` (the room's app when the
    /// client sent no key either).
    func admit(_ caller: ChatCaller?, to roomID: String, kind: RoomKind) async throws -> Result<ChatCaller, SocketRefusal> {
        guard let room = try await rooms.room(roomID), room.kind == kind else { return .failure(SocketRefusal("room not found")) }
        if let caller, let userID = caller.userID {
            guard caller.appID == room.appID, try await takesPart(userID, in: room) else {
                return .failure(SocketRefusal("not a participant of this room"))
            }
            return .success(caller)
        }
        let appID = caller?.appID ?? room.appID
        guard appID == room.appID, try await apps.appFlags(appID)?.socketAuthOptional == true else {
            return .failure(SocketRefusal("authentication required"))
        }
        return .success(ChatCaller(appID: appID, userID: nil))
    }

    private func takesPart(_ userID: String, in room: RoomRecord) async throws -> Bool {
        if room.kind == .channel, let workspaceID = room.workspaceID { return try await workspaces.isMember(workspaceID, userID: userID) }
        return try await rooms.isParticipant(roomID: room.id, userID: userID)
    }

    func connected(_ socket: ChatSocket) {
        users.connected(socket)
        if let room = Self.room(of: socket.namespace) { hub.subscribe(socket, to: room.id) }
    }

    func disconnected(_ socket: ChatSocket) {
        users.disconnected(socket)
        hub.unsubscribeAll(socket)
    }

    func event(_ event: SocketEvent, from socket: ChatSocket) async -> SocketEvent.Reply? {
        switch event.name {
        case "join_room":
            guard let roomID = Self.roomID(in: event.arguments) else { return nil }
            let answer: JSONValue = .object(["roomId": .string(roomID)])
            do {
                switch try await admit(socket.caller, to: roomID, kind: .pair) {
                case .success:
                    hub.subscribe(socket, to: roomID)
                    socket.emit("joined_room", [answer])
                    return SocketEvent.Reply(arguments: [answer])
                case .failure(let refusal):
                    let error: JSONValue = .object(["roomId": .string(roomID), "message": .string(refusal.message)])
                    socket.emit("join_room_error", [error])
                    return SocketEvent.Reply(arguments: [error])
                }
            } catch {
                logger.warning("join_room failed", metadata: ["error": "\(error)"])
                return nil
            }
        case "leave_room":
            guard let roomID = Self.roomID(in: event.arguments) else { return nil }
            hub.unsubscribe(socket, from: roomID)
            let answer: JSONValue = .object(["roomId": .string(roomID)])
            socket.emit("left_room", [answer])
            return SocketEvent.Reply(arguments: [answer])
        case "ping":
            socket.emit("pong", event.arguments)
            return SocketEvent.Reply(arguments: [])
        default:
            // Messages are created over REST only: a client-emitted `chat` or `send_message` is
            // never rebroadcast.
            logger.debug("socket event ignored", metadata: ["event": "\(event.name.prefix(64))"])
            return nil
        }
    }

    /// `{roomId}` (also `room_id`) or a bare id string.
    static func roomID(in arguments: [JSONValue]) -> String? {
        guard let first = arguments.first else { return nil }
        let id = first.string ?? first["roomId"]?.string ?? first["room_id"]?.string
        guard let id, !id.isEmpty, id.utf8.count <= 64 else { return nil }
        return id
    }
}
