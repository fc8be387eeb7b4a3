/// The query of an Engine.IO request: `EIO=4`, `transport`, and `sid` after the handshake.
struct EngineQuery: Sendable {
    var transport: EngineSession.Transport
    var sid: String?

    init(_ parameters: (String) -> String?) throws(EngineError) {
        guard parameters("EIO") == "4" else { throw .unsupportedVersion }
        switch parameters("transport") {
        case "polling": transport = .polling
        case "websocket": transport = .websocket
        default: throw .unknownTransport
        }
        sid = parameters("sid")
        if let sid, sid.isEmpty || sid.utf8.count > 64 { throw .unknownSession }
    }
}
