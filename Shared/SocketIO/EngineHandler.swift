/// What sits on top of Engine.IO (the Socket.IO layer): told when sessions open and close and
/// given every message packet, in order, one at a time per session.
package protocol EngineHandler: Sendable {
    func opened(_ session: EngineSession)
    func received(_ payload: EnginePacket.Payload, on session: EngineSession) async
    func closed(_ session: EngineSession, reason: String)
}
