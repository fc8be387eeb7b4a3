/// What a Socket.IO server hosts: who may join which namespace, and what events do.
protocol SocketApplication: Sendable {
    /// What an accepted CONNECT proved about the client (its user, its app).
    associatedtype Caller: Sendable

    /// Decides a CONNECT to `namespace` with the packet's payload (`auth`).
    func authorize(namespace: String, auth: JSONValue?, handshake: EngineHandshake) async -> Result<Caller, SocketRefusal>
    func connected(_ socket: NamespaceSocket<Caller>)
    /// Handles an event; the answer is sent as the ACK when the client asked for one.
    func event(_ event: SocketEvent, from socket: NamespaceSocket<Caller>) async -> SocketEvent.Reply?
    func disconnected(_ socket: NamespaceSocket<Caller>)
}

/// A CONNECT refused: sent as CONNECT_ERROR `{message}`.
struct SocketRefusal: Error, Sendable, Equatable {
    var message: String
    init(_ message: String) { self.message = message }

    static let invalidNamespace = SocketRefusal("Invalid namespace")
}

/// An event a client emitted.
struct SocketEvent: Sendable {
    var name: String
    var arguments: [JSONValue]
    var attachments: [[UInt8]]

    /// Acknowledgement arguments (and binary attachments their placeholders point at).
    struct Reply: Sendable {
        var arguments: [JSONValue]
        var attachments: [[UInt8]] = []
    }
}
