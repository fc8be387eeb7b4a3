/// Engine.IO server settings. Production values are API.md §3's; the protocol-test switch uses
/// the conformance suites' (300 ms / 200 ms).
package struct EngineConfiguration: Sendable {
    package var pingInterval: Duration = .seconds(25)
    package var pingTimeout: Duration = .seconds(20)
    package var maxPayload = 1_000_000
    /// Packets waiting for a slow client beyond this many bytes disconnect it: memory stays bounded.
    package var maxQueuedBytes = 4 << 20
    /// A connection that joins no namespace within this time is closed.
    package var connectTimeout: Duration = .seconds(45)
    /// Under steady traffic, WebSocket flushes of one event loop at least this far apart
    /// (`LoopFlusher`); zero: every tick's frames leave at the end of the tick. The suites'
    /// configuration keeps zero: their clients expect the reference server's frame-per-read timing.
    package var flushWindow: Duration = .zero

    package static let protocolTest = EngineConfiguration(pingInterval: .milliseconds(300), pingTimeout: .milliseconds(200))

    package init() {}

    init(pingInterval: Duration, pingTimeout: Duration) {
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
    }
}

/// What the client proved when it opened the session: the app (from a key the gateway resolved)
/// and an access token from the `Authorization` header. Either may be absent.
package struct EngineHandshake: Sendable {
    package var appID: String?
    package var token: String?

    package init(appID: String? = nil, token: String? = nil) {
        self.appID = appID
        self.token = token
    }
}
