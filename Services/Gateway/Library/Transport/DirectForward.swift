import Contracts
import NIOHTTP1
import ServiceKit

/// A request the direct path forwards: where to, for whom, and the head the service receives.
/// A class: it is held until the answer is written, and passing it on costs one reference.
final class DirectForward: Sendable {
    let service: ServiceName
    let app: AppInfo?
    /// Errors carry a page (API.md §9).
    let paginated: Bool
    /// The route pattern: the metrics label.
    let route: String
    /// Without the query: the access line's.
    let path: Substring
    let requestID: String
    let bodyLength: Int
    let head: HTTPRequestHead

    init(admission: GatewayPolicy.Admission, path: Substring, requestID: String, bodyLength: Int, head: HTTPRequestHead) {
        self.service = admission.route.service
        self.app = admission.app
        self.paginated = admission.route.paginated
        self.route = admission.route.pattern
        self.path = path
        self.requestID = requestID
        self.bodyLength = bodyLength
        self.head = head
    }

    /// The direct work for a request head, or nil for the general path: an HTTP/1.1 request with
    /// a small body (or none) and no header that rules the direct path out, which the policy
    /// admits to a service without asking anyone.
    convenience init?(_ head: HTTPRequestHead, remoteIP: String?, policy: GatewayPolicy) {
        guard head.method != .HEAD, head.version == .http1_1, let facts = DirectHeaderFacts(head.headers) else { return nil }
        var bodyLength = 0
        if let length = facts.contentLength {
            guard let value = Int(length), value <= ProxyRoutes.bufferedBodyLimit else { return nil }
            bodyLength = value
        }
        let target = head.uri
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        let request = GatewayPolicy.Request(
            method: head.method.rawValue, path: path, appKey: facts.appKey,
            clientIP: policy.clientIP(forwardedFor: facts.forwardedFor, remoteIP: remoteIP), contentLength: bodyLength
        )
        guard case .admit(let admission) = policy.decide(request), admission.route.service != .gateway else { return nil }
        let requestID = RequestIDMiddleware.requestID(offered: facts.requestID)
        self.init(
            admission: admission, path: path, requestID: requestID, bodyLength: bodyLength,
            head: policy.upstreamHead(
                method: head.method, uri: admission.upstreamTarget(target), fields: head.headers, count: head.headers.count,
                app: admission.app, requestID: requestID, clientIP: admission.clientIP
            )
        )
    }
}
