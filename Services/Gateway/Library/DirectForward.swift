import Contracts
import NIOHTTP1

/// A request the direct path forwards: where to, for whom, and the head the service receives.
struct DirectForward: Sendable {
    var service: ServiceName
    var app: AppInfo?
    /// The route pattern: the metrics label.
    var route: String
    /// Without the query: the access line's.
    var path: Substring
    var requestID: String
    var bodyLength: Int
    var head: HTTPRequestHead
}
