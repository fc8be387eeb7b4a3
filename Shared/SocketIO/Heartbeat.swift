import NIOCore

/// The server's side of Engine.IO's heartbeat for all sessions: a ping every `pingInterval`,
/// and a session whose pong has not come `pingTimeout` after its ping is closed. The pings that
/// fall due together leave together: one shared frame, one hop per event loop.
final class Heartbeat: Sendable {
    private let pings: DelayQueue<EngineSession>

    init(configuration: EngineConfiguration) {
        let checks = DelayQueue<EngineSession>(delay: configuration.pingTimeout, slack: .late) { sessions in
            for session in sessions where session.timedOut() { session.close(reason: "ping timeout") }
            return []
        }
        let frame = WebSocketFrames.packet(EnginePacket(.ping), allocator: ByteBufferAllocator())
        pings = DelayQueue(delay: configuration.pingInterval, slack: .early) { sessions in
            var sockets: [EngineSocketHandler] = []
            let pinged = sessions.filter { session in
                guard session.pingSent() else { return false }
                if let socket = session.socket { sockets.append(socket) } else { session.send([EnginePacket(.ping)]) }
                return true
            }
            EngineSocketHandler.broadcast(frame, to: sockets)
            checks.add(pinged)
            return pinged
        }
    }

    func start(_ session: EngineSession) {
        pings.add(CollectionOfOne(session))
    }
}
