import Contracts
import HTTPTypes
import Logging
import NIOCore
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
    let head: UpstreamRequestHead

    init(admission: GatewayPolicy.Admission, path: Substring, requestID: String, bodyLength: Int, head: UpstreamRequestHead) {
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
        guard head.version == .http1_1, let facts = DirectHeaderFacts(head.headers),
            let admitted = Admitted(method: head.method, target: head.uri, facts: facts, remoteIP: remoteIP, policy: policy, local: nil, now: .now)
        else { return nil }
        let admission = admitted.admission
        self.init(
            admitted,
            head: policy.upstreamHead(
                method: head.method, uri: admission.upstreamTarget(head.uri), fields: head.headers, app: admission.app,
                requestID: admitted.requestID, clientIP: admission.clientIP))
    }

    /// The same from a head read by `PlainRequestHead` (the byte fronts); a front loop gives its
    /// own `local` and time (`GatewayPolicy.Local`, `FrontLoop.now`).
    convenience init?(
        _ plain: borrowing PlainRequestHead, remoteIP: String?, policy: GatewayPolicy, local: GatewayPolicy.Local? = nil,
        now: ContinuousClock.Instant = .now
    ) {
        guard let facts = plain.facts else { return nil }
        let method = HTTPMethod(rawValue: plain.method)
        guard let admitted = Admitted(method: method, target: plain.target, facts: facts, remoteIP: remoteIP, policy: policy, local: local, now: now)
        else { return nil }
        let admission = admitted.admission
        self.init(
            admitted,
            head: policy.upstreamHead(
                plain, method: method, uri: admission.upstreamTarget(plain.target), app: admission.app, requestID: admitted.requestID,
                clientIP: admission.clientIP))
    }

    private convenience init(_ admitted: Admitted, head: UpstreamRequestHead) {
        self.init(admission: admitted.admission, path: admitted.path, requestID: admitted.requestID, bodyLength: admitted.bodyLength, head: head)
    }

    /// What both heads share: the policy's decision and the request's id. (The head the service
    /// receives is each caller's to write after: written in a closure passed here, it had the
    /// closure's captures retained and released per request.)
    private struct Admitted {
        var admission: GatewayPolicy.Admission
        var path: Substring
        var requestID: String
        var bodyLength: Int

        init?(
            method: HTTPMethod, target: String, facts: DirectHeaderFacts, remoteIP: String?, policy: GatewayPolicy, local: GatewayPolicy.Local?,
            now: ContinuousClock.Instant
        ) {
            guard method != .HEAD else { return nil }
            var bodyLength = 0
            if let length = facts.contentLength {
                guard let value = Int(length), value <= ProxyRoutes.bufferedBodyLimit else { return nil }
                bodyLength = value
            }
            let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
            let request = GatewayPolicy.Request(
                method: method.rawValue, path: path, appKey: facts.appKey,
                clientIP: policy.clientIP(forwardedFor: facts.forwardedFor, remoteIP: remoteIP), contentLength: bodyLength, now: now
            )
            guard case .admit(let admission) = policy.decide(request, local: local), admission.route.service != .gateway else { return nil }
            self.admission = admission
            self.path = path
            self.requestID = local?.requestID(offered: facts.requestID, now: now) ?? RequestIDMiddleware.requestID(offered: facts.requestID)
            self.bodyLength = bodyLength
        }
    }

    /// What the client gets: the service's answer through the policy (the app's dialect on
    /// errors, the gateway's headers), or the app's "unavailable" when the service could not answer.
    func clientAnswer(_ result: Result<UpstreamResponse, any Error>, policy: GatewayPolicy, dates: inout HTTPDateCache) -> ClientAnswer {
        switch result {
        case .success(let response):
            switch response.body {
            case .buffered(let buffer):
                let (head, body) = policy.clientAnswer(response.head, buffer, app: app, paginated: paginated, requestID: requestID, dates: &dates)
                return .whole(head, body)
            case .stream(let stream):
                return .stream(policy.clientHead(response.head.http, length: nil, requestID: requestID, dates: &dates), stream)
            }
        case .failure:
            let (head, body) = policy.clientAnswer(
                policy.unavailable(service, app: app, paginated: paginated), requestID: requestID, dates: &dates)
            return .whole(head, body)
        }
    }

    enum ClientAnswer {
        case whole(HTTPResponseHead, ByteBuffer)
        /// A large answer, passed on part by part.
        case stream(HTTPResponseHead, UpstreamBodyStream)
    }

    /// The same with its head written as bytes (the byte front). An answer that passes as is
    /// (most) has its head written straight from the service's field lines, no strings made.
    func writeClientAnswer(
        _ result: Result<UpstreamResponse, any Error>, policy: GatewayPolicy, dates: inout HTTPDateCache, to buffer: inout ByteBuffer
    ) -> WrittenAnswer {
        if case .success(let response) = result, case .stream(let stream) = response.body {
            let framing = writeStreamedHead(response.head, policy: policy, dates: &dates, to: &buffer)
            return WrittenAnswer(status: Int(response.head.status.code), framing: framing, body: .stream(stream))
        }
        if case .success(let response) = result, GatewayPolicy.passesAsIs(response.head), case .buffered(let body) = response.body {
            let framing = policy.writeClientHead(response.head, length: body.readableBytes, requestID: requestID, dates: &dates, to: &buffer)
            return WrittenAnswer(status: Int(response.head.status.code), framing: framing, body: .whole(body))
        }
        switch clientAnswer(result, policy: policy, dates: &dates) {
        case .whole(let head, let body):
            return WrittenAnswer(status: Int(head.status.code), framing: AnswerBytes.writeHead(head, to: &buffer), body: .whole(body))
        case .stream(let head, let stream):
            return WrittenAnswer(status: Int(head.status.code), framing: AnswerBytes.writeHead(head, to: &buffer), body: .stream(stream))
        }
    }

    /// A streamed answer's head as bytes (the front loops pass the body on themselves).
    func writeStreamedHead(_ head: UpstreamHead, policy: GatewayPolicy, dates: inout HTTPDateCache, to buffer: inout ByteBuffer) -> BodyFraming {
        if GatewayPolicy.passesAsIs(head) {
            return policy.writeClientHead(head, length: nil, requestID: requestID, dates: &dates, to: &buffer)
        }
        return AnswerBytes.writeHead(policy.clientHead(head.http, length: nil, requestID: requestID, dates: &dates), to: &buffer)
    }

    /// An answer whose head is written: how its body goes.
    struct WrittenAnswer {
        enum Body {
            case whole(ByteBuffer)
            case stream(UpstreamBodyStream)
        }

        var status: Int
        var framing: BodyFraming
        var body: Body
    }

    /// The request's end as every path reports it: its metrics, the request log, the access line.
    func ended(
        status: Int, since start: ContinuousClock.Instant, now: ContinuousClock.Instant = .now, metrics: RequestMetrics, policy: GatewayPolicy,
        accessLog: Logger?
    ) {
        let method = head.method.rawValue
        metrics.record(method: method, route: route, status: status, since: start, now: now)
        policy.requestLog.record(
            status: status,
            RequestLog.Ended(
                method: method, route: route, start: start, app: app, requestID: requestID, authorization: head.value(of: "authorization")))
        if let accessLog {
            AccessLogMiddleware.log(
                to: accessLog, level: .info, method: HTTPRequest.Method(method) ?? .get, path: String(path), status: status, since: start,
                metadata: ["request_id": .string(requestID)]
            )
        }
    }
}
