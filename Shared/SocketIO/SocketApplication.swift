/// What a Socket.IO server hosts: who may join which namespace, and what events do.
package protocol SocketApplication: Sendable {
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
package struct SocketRefusal: Error, Sendable, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }

    package static let invalidNamespace = SocketRefusal("Invalid namespace")
}

/// An event a client emitted.
package struct SocketEvent: Sendable {
    package var name: String
    package var arguments: [JSONValue]
    package var attachments: [[UInt8]]

    /// Acknowledgement arguments (and binary attachments their placeholders point at).
    package struct Reply: Sendable {
        package var arguments: [JSONValue]
        package var attachments: [[UInt8]] = []

        package init(arguments: [JSONValue], attachments: [[UInt8]] = []) {
            self.arguments = arguments
            self.attachments = attachments
        }
    }
}
