/// One public route: method + path pattern → owning service. Patterns are `/`-separated; a
/// `{name}` segment matches any one segment and a final `**` matches whatever follows.
package struct Route: Sendable, Equatable {
    package var method: String
    package var pattern: String
    package var service: ServiceName
    package var appKey: AppKeyRule
    /// Answers a page (API.md §9): its errors carry `data: []` and a `pagination` too.
    package var paginated: Bool

    package init(_ method: String, _ pattern: String, _ service: ServiceName, appKey: AppKeyRule = .required, paginated: Bool = false) {
        self.method = method
        self.pattern = pattern
        self.service = service
        self.appKey = appKey
        self.paginated = paginated
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
