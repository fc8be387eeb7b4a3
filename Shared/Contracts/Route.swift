/// One public route: method + path pattern → owning service. Patterns are `/`-separated; a
/// `{name}` segment matches any one segment and a final `**` matches whatever follows.
public struct Route: Sendable, Equatable {
    public var method: String
    public var pattern: String
    public var service: ServiceName
    public var appKey: AppKeyRule

    public init(_ method: String, _ pattern: String, _ service: ServiceName, appKey: AppKeyRule = .required) {
        self.method = method
        self.pattern = pattern
        self.service = service
        self.appKey = appKey
    }
}

/// Whether the gateway demands `SeSACKey` before forwarding (API.md §0).
public enum AppKeyRule: Sendable, Equatable {
    /// Missing or unknown key → 420.
    case required
    /// Checked when sent (unknown → 420); absent is allowed (Socket.IO handshakes).
    case optional
    /// Never looked at: callers that are not our apps (the payment provider's webhook).
    case none
}
