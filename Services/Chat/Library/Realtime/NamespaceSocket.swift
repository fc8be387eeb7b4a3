/// A client connected to one namespace over one Engine.IO session.
final class NamespaceSocket<Caller: Sendable>: Sendable {
    let id: String
    let namespace: String
    let caller: Caller
    let session: EngineSession
    /// The CONNECT payload (`{}` when none).
    let auth: JSONValue

    init(id: String, namespace: String, caller: Caller, session: EngineSession, auth: JSONValue) {
        self.id = id
        self.namespace = namespace
        self.caller = caller
        self.session = session
        self.auth = auth
    }

    @discardableResult
    func emit(_ event: String, _ arguments: [JSONValue], attachments: [[UInt8]] = []) -> Bool {
        let kind: SocketPacket.Kind = attachments.isEmpty ? .event : .binaryEvent
        return send(SocketPacket(kind, namespace: namespace, data: .array([.string(event)] + arguments), attachments: attachments))
    }

    @discardableResult
    func send(_ packet: SocketPacket) -> Bool {
        session.send(packet.enginePackets)
    }
}

extension SocketPacket {
    /// The Engine.IO messages that carry this packet: its text, then one binary per attachment.
    var enginePackets: [EnginePacket] {
        let (text, attachments) = encoded()
        return [.message(text)] + attachments.map { EnginePacket.binary($0) }
    }
}
