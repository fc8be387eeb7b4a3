/// Engine.IO server settings. Production values are API.md §3's; the protocol-test switch uses
/// the conformance suites' (300 ms / 200 ms).
struct EngineConfiguration: Sendable {
    var pingInterval: Duration = .seconds(25)
    var pingTimeout: Duration = .seconds(20)
    var maxPayload = 1_000_000
    /// Packets waiting for a slow client beyond this many bytes disconnect it: memory stays bounded.
    var maxQueuedBytes = 4 << 20
    /// A connection that joins no namespace within this time is closed.
    var connectTimeout: Duration = .seconds(45)

    static let protocolTest = EngineConfiguration(pingInterval: .milliseconds(300), pingTimeout: .milliseconds(200))
}

/// What the client proved when it opened the session: the app (from a key the gateway resolved)
/// and an access token from the `Authorization` header. Either may be absent.
struct EngineHandshake: Sendable {
    var appID: String?
    var token: String?
}
