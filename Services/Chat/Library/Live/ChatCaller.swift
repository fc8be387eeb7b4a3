import SocketIO

/// Who a chat socket is: its app, and its user unless it came without a token (receive-only,
/// allowed for apps with `socket_auth_optional`).
struct ChatCaller: Sendable, Equatable {
    var appID: String
    var userID: String?
}

typealias ChatSocket = NamespaceSocket<ChatCaller>
