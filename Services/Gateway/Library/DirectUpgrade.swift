import Contracts
import NIOHTTP1

/// A `/socket.io/` WebSocket upgrade the direct path splices to chat-svc.
struct DirectUpgrade: Sendable {
    var app: AppInfo?
    var requestID: String
    /// The upgrade request as chat-svc receives it.
    var head: HTTPRequestHead
}
