/// One public route: method + path pattern → owning service. Patterns are `/`-separated; a
/// `{name}` segment matches any one segment and a final `**` matches whatever follows.
package struct Route: Sendable, Equatable {
    package var method: String
    package var pattern: String
    package var service: ServiceName
    package var appKey: AppKeyRule

    package init(_ method: String, _ pattern: String, _ service: ServiceName, appKey: AppKeyRule = .required) {
        self.method = method
        self.pattern = pattern
        self.service = service
        self.appKey = appKey
    }
}

/// Whether the gateway demands `SeSACKey` before forwarding (API.md §0).
package enum AppKeyRule: Sendable, Equatable {
    /// Missing or unknown key → 420.
    case required
    /// Checked when sent (unknown → 420); absent is allowed (Socket.IO handshakes).
    case optional
    /// Never looked at: callers that are not our apps (the payment provider's webhook).
    case none
}
