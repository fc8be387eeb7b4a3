/// A client connected to one namespace over one Engine.IO session.
package final class NamespaceSocket<Caller: Sendable>: Sendable {
    package let id: String
    package let namespace: String
    package let caller: Caller
    package let session: EngineSession
    /// The CONNECT payload (`{}` when none).
    package let auth: JSONValue

    package init(id: String, namespace: String, caller: Caller, session: EngineSession, auth: JSONValue) {
        self.id = id
        self.namespace = namespace
        self.caller = caller
        self.session = session
        self.auth = auth
    }

    @discardableResult
    package func emit(_ event: String, _ arguments: [JSONValue], attachments: [[UInt8]] = []) -> Bool {
        let kind: SocketPacket.Kind = attachments.isEmpty ? .event : .binaryEvent
        return send(SocketPacket(kind, namespace: namespace, data: .array([.string(event)] + arguments), attachments: attachments))
    }

    @discardableResult
    func send(_ packet: SocketPacket) -> Bool {
        session.send(packet.enginePackets)
    }

    /// Emits `event` with one JSON argument (already encoded) to every socket given: the packet
    /// is built once per namespace, not once per socket.
    package static func broadcast(_ event: String, json: String, to sockets: some Sequence<NamespaceSocket>) {
        var packets: [String: [EnginePacket]] = [:]
        for socket in sockets {
            let encoded = packets[socket.namespace] ?? {
                let packet = [EnginePacket.message(SocketPacket.eventText(namespace: socket.namespace, event: event, json: json))]
                packets[socket.namespace] = packet
                return packet
            }()
            socket.session.send(encoded)
        }
    }
}

extension SocketPacket {
    /// The Engine.IO messages that carry this packet: its text, then one binary per attachment.
    var enginePackets: [EnginePacket] {
        let (text, attachments) = encoded()
        return [.message(text)] + attachments.map { EnginePacket.binary($0) }
    }
}
