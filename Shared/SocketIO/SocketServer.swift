import Logging
import Synchronization

/// Socket.IO v5 on top of Engine.IO: namespaces, CONNECT / DISCONNECT / EVENT / ACK, binary
/// attachments. A malformed packet closes the whole connection, as the protocol asks.
package final class SocketServer<App: SocketApplication>: EngineHandler {
    let app: App
    private let configuration: EngineConfiguration
    private let logger: Logger
    private let table: ConnectionTable<App.Caller>
    /// Sessions that must join a namespace within `connectTimeout` (one queue, not a timer each).
    private let connectDeadlines: DelayQueue<EngineSession>

    package init(app: App, configuration: EngineConfiguration, logger: Logger) {
        self.app = app
        self.configuration = configuration
        self.logger = logger
        let table = ConnectionTable<App.Caller>()
        self.table = table
        connectDeadlines = DelayQueue(delay: configuration.connectTimeout, slack: .late) { sessions in
            // A client that never joins a namespace is not kept around.
            for session in sessions where table.connections.withLock({ $0[session.id].map { !$0.everConnected } ?? false }) {
                session.close(reason: "no namespace joined")
            }
            return []
        }
    }

    package func opened(_ session: EngineSession) {
        table.connections.withLock { $0[session.id] = Connection() }
        connectDeadlines.add(CollectionOfOne(session))
    }

    package func closed(_ session: EngineSession, reason: String) {
        let sockets = table.connections.withLock { $0.removeValue(forKey: session.id)?.sockets.values.map { $0 } ?? [] }
        for socket in sockets { app.disconnected(socket) }
    }

    package func received(_ payload: EnginePacket.Payload, on session: EngineSession) async {
        let next: ReceiveStep
        switch payload {
        case .text(let text):
            switch Result(catching: { () throws(SocketPacket.DecodingError) in try SocketPacket.decode(text) }) {
            case .failure(let error):
                next = .invalid("malformed packet: \(error)")
            case .success(let (packet, expected)):
                next = table.connections.withLock { connections -> ReceiveStep in
                    guard connections[session.id]?.assembly == nil else { return .invalid("text packet during binary assembly") }
                    guard expected > 0 else { return .dispatch(packet) }
                    connections[session.id]?.assembly = BinaryAssembly(packet: packet, expected: expected)
                    return .wait
                }
            }
        case .binary(let bytes):
            next = table.connections.withLock { connections -> ReceiveStep in
                guard var assembly = connections[session.id]?.assembly else { return .invalid("unexpected binary message") }
                assembly.add(bytes)
                connections[session.id]?.assembly = assembly.isComplete ? nil : assembly
                return assembly.isComplete ? .dispatch(assembly.packet) : .wait
            }
        }
        switch next {
        case .dispatch(let packet): await dispatch(packet, on: session)
        case .wait: break
        case .invalid(let reason):
            logger.debug("closing socket.io connection", metadata: ["sid": "\(session.id)", "reason": "\(reason)"])
            session.close(reason: reason)
        }
    }

    private func dispatch(_ packet: SocketPacket, on session: EngineSession) async {
        switch packet.kind {
        case .connect:
            await connect(packet, on: session)
        case .disconnect:
            let socket = table.connections.withLock { $0[session.id]?.sockets.removeValue(forKey: packet.namespace) }
            if let socket { app.disconnected(socket) }
        case .event, .binaryEvent:
            guard let socket = socket(packet.namespace, on: session), let (name, arguments) = packet.event else { return }
            let reply = await app.event(SocketEvent(name: name, arguments: arguments, attachments: packet.attachments), from: socket)
            if let ackID = packet.ackID, let reply {
                let kind: SocketPacket.Kind = reply.attachments.isEmpty ? .ack : .binaryAck
                socket.send(
                    SocketPacket(kind, namespace: packet.namespace, ackID: ackID, data: .array(reply.arguments), attachments: reply.attachments))
            }
        case .ack, .binaryAck:
            break  // the server never asks clients for acknowledgements
        case .connectError:
            session.close(reason: "client sent CONNECT_ERROR")
        }
    }

    private func connect(_ packet: SocketPacket, on session: EngineSession) async {
        guard socket(packet.namespace, on: session) == nil else { return }
        switch await app.authorize(namespace: packet.namespace, auth: packet.data, handshake: session.handshake) {
        case .failure(let refusal):
            session.send(SocketPacket(.connectError, namespace: packet.namespace, data: .object(["message": .string(refusal.message)])).enginePackets)
        case .success(let caller):
            let socket = NamespaceSocket(
                id: EngineSession.newID(), namespace: packet.namespace, caller: caller, session: session,
                auth: packet.data ?? .object([:])
            )
            let registered = table.connections.withLock { connections -> Bool in
                guard connections[session.id] != nil else { return false }
                connections[session.id]?.sockets[packet.namespace] = socket
                connections[session.id]?.everConnected = true
                return true
            }
            guard registered else { return }
            socket.send(SocketPacket(.connect, namespace: packet.namespace, data: .object(["sid": .string(socket.id)])))
            app.connected(socket)
        }
    }

    private func socket(_ namespace: String, on session: EngineSession) -> NamespaceSocket<App.Caller>? {
        table.connections.withLock { $0[session.id]?.sockets[namespace] }
    }
}

/// Per Engine.IO session: its namespace sockets and a binary packet being assembled.
private struct Connection<Caller: Sendable> {
    var sockets: [String: NamespaceSocket<Caller>] = [:]
    var assembly: BinaryAssembly?
    var everConnected = false
}

/// The connections by session id, in a class so the connect deadlines can reach them.
private final class ConnectionTable<Caller: Sendable>: Sendable {
    let connections = Mutex<[String: Connection<Caller>]>([:])
}

/// What an incoming message leads to: a complete packet, waiting for attachments, or a
/// protocol violation that closes the connection.
private enum ReceiveStep {
    case dispatch(SocketPacket)
    case wait
    case invalid(String)
}
