import Foundation

/// The eight processes, their executable names and their local default ports.
package enum ServiceName: String, Codable, Sendable, CaseIterable {
    case gateway
    case auth = "auth-svc"
    case chat = "chat-svc"
    case market = "market-svc"
    case geo = "geo-svc"
    case paymentVerify = "payment-verify-svc"
    case push = "push-svc"
    /// The operators' side: moderation and the admin API (`/admin/api`).
    case admin = "admin-svc"

    /// Offset from the launcher's base port (gateway first).
    package var portOffset: Int {
        switch self {
        case .gateway: 0
        case .auth: 1
        case .chat: 2
        case .market: 3
        case .geo: 4
        case .paymentVerify: 5
        case .push: 6
        case .admin: 7
        }
    }

    package static let defaultBasePort = 8080
    package var defaultPort: Int { Self.defaultBasePort + portOffset }

    /// The environment variable other processes read to reach this one (e.g. `AUTH_SVC_URL`).
    package var urlVariable: String {
        rawValue.uppercased().replacingOccurrences(of: "-", with: "_") + "_URL"
    }

    /// Services behind the gateway.
    package static var backends: [ServiceName] { allCases.filter { $0 != .gateway } }
}
