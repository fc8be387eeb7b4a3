import NIOCore

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

    /// Ends the client's whole connection (every namespace on it): the server's DISCONNECT for
    /// this namespace, then the Engine.IO session closed, as when its user is banned.
    package func disconnect(reason: String) {
        send(SocketPacket(.disconnect, namespace: namespace, data: nil))
        session.close(reason: reason)
    }

    @discardableResult
    func send(_ packet: SocketPacket) -> Bool {
        session.send(packet.enginePackets)
    }

    /// Emits `event` with one JSON argument (already encoded) to every socket given. The packet
    /// is encoded once per namespace, WebSocket frame included; the frame's bytes are shared by
    /// every socket on a WebSocket, written with one hop per event loop (not per socket), and
    /// sockets still on polling queue the packet.
    package static func broadcast(_ event: String, json: String, to sockets: some Sequence<NamespaceSocket>) {
        var encoding = BroadcastEncoding(event: event, json: json)
        // A room's sockets are nearly all on one namespace: the current one's group is kept
        // aside, and the others (a `join_room` from `/`) are found by hashing.
        var namespace: String?
        var handlers: [EngineSocketHandler] = []
        handlers.reserveCapacity(sockets.underestimatedCount)
        var others: [String: [EngineSocketHandler]] = [:]
        for socket in sockets {
            guard let handler = socket.session.socket else {
                socket.session.send(encoding.encoded(socket.namespace).packets)
                continue
            }
            if namespace == nil { namespace = socket.namespace }
            if socket.namespace == namespace {
                handlers.append(handler)
            } else {
                others[socket.namespace, default: []].append(handler)
            }
        }
        if let namespace { EngineSocketHandler.broadcast(encoding.encoded(namespace).frame, to: handlers) }
        for (namespace, handlers) in others { EngineSocketHandler.broadcast(encoding.encoded(namespace).frame, to: handlers) }
    }
}

/// A broadcast's packet per namespace, encoded on first use: as an Engine.IO packet (for
/// polling queues) and as a complete WebSocket frame.
private struct BroadcastEncoding {
    let event: String
    let json: String
    private var done: [String: (packets: [EnginePacket], frame: ByteBuffer)] = [:]

    init(event: String, json: String) {
        self.event = event
        self.json = json
    }

    mutating func encoded(_ namespace: String) -> (packets: [EnginePacket], frame: ByteBuffer) {
        if let made = done[namespace] { return made }
        let text = SocketPacket.eventText(namespace: namespace, event: event, json: json)
        let made = ([EnginePacket.message(text)], WebSocketFrames.text(kind: .message, text, allocator: ByteBufferAllocator()))
        done[namespace] = made
        return made
    }
}

extension SocketPacket {
    /// The Engine.IO messages that carry this packet: its text, then one binary per attachment.
    var enginePackets: [EnginePacket] {
        let (text, attachments) = encoded()
        return [.message(text)] + attachments.map { EnginePacket.binary($0) }
    }
}
