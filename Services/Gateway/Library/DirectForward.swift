import Contracts
import NIOHTTP1

/// A request the direct path forwards: where to, for whom, and the head the service receives.
/// A class: it is held until the answer is written, and passing it on costs one reference.
final class DirectForward: Sendable {
    let service: ServiceName
    let app: AppInfo?
    /// The route pattern: the metrics label.
    let route: String
    /// Without the query: the access line's.
    let path: Substring
    let requestID: String
    let bodyLength: Int
    let head: HTTPRequestHead

    init(service: ServiceName, app: AppInfo?, route: String, path: Substring, requestID: String, bodyLength: Int, head: HTTPRequestHead) {
        self.service = service
        self.app = app
        self.route = route
        self.path = path
        self.requestID = requestID
        self.bodyLength = bodyLength
        self.head = head
    }
}
