/// The server's side of Engine.IO's heartbeat for all sessions: a ping every `pingInterval`,
/// and a session whose pong has not come `pingTimeout` after its ping is closed.
final class Heartbeat: Sendable {
    private let pings: DelayQueue<EngineSession>

    init(configuration: EngineConfiguration) {
        let checks = DelayQueue<EngineSession>(delay: configuration.pingTimeout) { session in
            if session.timedOut() { session.close(reason: "ping timeout") }
            return false
        }
        pings = DelayQueue(delay: configuration.pingInterval) { session in
            guard session.ping() else { return false }
            checks.add(session)
            return true
        }
    }

    func start(_ session: EngineSession) {
        pings.add(session)
    }
}
