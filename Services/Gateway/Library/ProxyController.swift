import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1
import ServiceKit

/// Everything a client request goes through: app key (420), route (444), rate limits (429), size
/// (413), then forwarding to the owning service with the internal headers, and error answers
/// rewritten into the app's dialect.
struct ProxyController: Sendable {
    let routes: RouteTable
    let apps: AppDirectory
    let limiter: RateLimiter
    let upstream: Upstream
    let configuration: GatewayConfiguration
    let common: CommonConfiguration

    /// Request bodies up to this size are passed in one piece; larger ones (uploads) stream.
    private static let bufferedBodyLimit = 256 << 10

    func handle(_ request: Request, context: GlintRequestContext) async throws -> Response {
        var app: AppInfo?
        do {
            let route = routes.match(method: request.method.rawValue, path: request.uri.path)
            if route?.appKey != AppKeyRule.none, let key = request.headers[.sesacKey] {
                guard let found = try await apps.app(forKey: key) else { throw ServiceError(.appKeyInvalid, "unknown app key") }
                app = found
            }
            guard let route else { throw ServiceError(.unknownRoute, "unknown route") }
            if route.appKey == .required, app == nil { throw ServiceError(.appKeyInvalid, "SeSACKey header required") }
            if let limited = rateLimited(app: app, request: request, context: context) { return limited }
            if let length = request.headers[.contentLength].flatMap(Int.init), length > configuration.maxBodyBytes {
                throw ServiceError(.payloadTooLarge, "request body too large")
            }
            return try await forward(request, to: route.service, app: app, context: context)
        } catch let error as ServiceError {
            if error.code == .unavailable || error.code == .internalError {
                context.logger.warning("gateway error", metadata: ["error": "\(error.message)"])
            }
            return DialectRenderer.response(for: error.canonical, app: app)
        }
    }

    /// The attendance page, with the caller's app key embedded when it sent a valid one.
    func attendancePage(_ request: Request, context: GlintRequestContext) async throws -> Response {
        guard let key = request.headers[.sesacKey] else { return AttendancePage.response(appKey: nil) }
        do {
            guard let app = try await apps.app(forKey: key) else { throw ServiceError(.appKeyInvalid, "unknown app key") }
            if let limited = rateLimited(app: app, request: request, context: context) { return limited }
            return AttendancePage.response(appKey: key)
        } catch let error as ServiceError {
            return DialectRenderer.response(for: error.canonical, app: nil)
        }
    }

    /// Both buckets (client address, app) must have a token; otherwise the 429 to answer, in the
    /// app's dialect, with `Retry-After`.
    private func rateLimited(app: AppInfo?, request: Request, context: GlintRequestContext) -> Response? {
        guard let wait = wait(app: app, clientIP: clientIP(request, context)) else { return nil }
        return DialectRenderer.response(
            for: CanonicalError(code: .rateLimited, message: "too many requests"), app: app, headers: [.retryAfter: String(Int(wait.rounded(.up)))]
        )
    }

    /// nil when allowed, else seconds until a token is available.
    private func wait(app: AppInfo?, clientIP: String) -> Double? {
        var wait = limiter.take("ip:" + clientIP, limit: configuration.ipLimit)
        if wait == nil, let app { wait = limiter.take("app:" + app.appID, limit: configuration.appLimit) }
        return wait
    }

    private func clientIP(_ request: Request, _ context: GlintRequestContext) -> String {
        clientIP(forwardedFor: request.headers[.forwardedFor], context.remoteAddress?.ipAddress)
    }

    private func clientIP(forwardedFor: String?, _ remoteIP: String?) -> String {
        if configuration.trustForwardedFor, let forwarded = forwardedFor,
           let first = forwarded.split(separator: ",").first {
            return first.trimmingCharacters(in: .whitespaces)
        }
        return remoteIP ?? "unknown"
    }

    private func forward(_ request: Request, to service: ServiceName, app: AppInfo?, context: GlintRequestContext) async throws -> Response {
        var head = upstreamHead(request.head, app: app, requestID: context.requestID, clientIP: clientIP(request, context))
        let trip = LimitedBody<RequestBody>.Trip()
        let length = request.headers[.contentLength].flatMap(Int.init)
        let body: UpstreamRequest.Body
        if let length, length <= Self.bufferedBodyLimit {
            // Small bodies (JSON) go in one piece: much cheaper than a streamed upload.
            body = length > 0 ? .bytes(try await request.body.collect(upTo: length)) : .none
        } else if length != nil || request.headers[.transferEncoding] != nil {
            if length == nil { head.headers.add(name: "transfer-encoding", value: "chunked") }
            body = .stream(LimitedBody(base: request.body, limit: configuration.maxBodyBytes, trip: trip))
        } else {
            body = .none
        }

        let response: UpstreamResponse
        do {
            response = try await upstream.forward(service, UpstreamRequest(head: head, body: body))
        } catch {
            if trip.tripped { throw ServiceError(.payloadTooLarge, "request body too large") }
            throw ServiceError(.unavailable, "\(service.rawValue) unavailable")
        }
        switch response.body {
        case .buffered(let buffer):
            return answer(response.head, buffer, app: app).response
        case .stream(let stream):
            return Response(status: .init(code: Int(response.head.status.code)), headers: responseHeaders(response.head.headers), body: .init(asyncSequence: stream))
        }
    }

    /// The head a service receives: the client's headers without those that stay at the gateway,
    /// plus the internal headers only the gateway may set.
    func upstreamHead(_ request: HTTPRequest, app: AppInfo?, requestID: String, clientIP: String) -> HTTPRequestHead {
        upstreamHead(
            method: HTTPMethod(rawValue: request.method.rawValue), uri: request.path ?? "/",
            fields: request.headerFields.lazy.map { (name: $0.name.rawName, value: $0.value) }, count: request.headerFields.count,
            app: app, requestID: requestID, clientIP: clientIP
        )
    }

    private func upstreamHead(
        method: HTTPMethod, uri: String, fields: some Sequence<(name: String, value: String)>, count: Int,
        app: AppInfo?, requestID: String, clientIP: String
    ) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        headers.reserveCapacity(count + 4)
        for (name, value) in fields where !HeaderRules.staysAtGateway(name) {
            headers.add(name: name, value: value)
        }
        headers.add(name: InternalHeader.secret, value: common.internalSecret)
        headers.add(name: InternalHeader.requestID, value: requestID)
        headers.add(name: InternalHeader.clientIP, value: clientIP)
        if let app { headers.add(name: InternalHeader.appID, value: app.appID) }
        return HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: headers)
    }

    /// A service's answer in hand: canonical error bodies become the app's dialect; anything else
    /// passes as is.
    func answer(_ head: HTTPResponseHead, _ body: ByteBuffer, app: AppInfo?) -> RenderedAnswer {
        if let canonical = Self.canonicalError(head, body) {
            return DialectRenderer.rendered(for: canonical, app: app)
        }
        return RenderedAnswer(status: .init(code: Int(head.status.code)), headers: responseHeaders(head.headers), body: body)
    }

    /// The direct path's `answer`: the client's head in NIO's form, with the request id, `Server`
    /// and `Date` the router would have set.
    func directAnswer(
        _ head: HTTPResponseHead, _ body: ByteBuffer, app: AppInfo?, requestID: String, dates: inout HTTPDateCache
    ) -> (HTTPResponseHead, ByteBuffer) {
        if let canonical = Self.canonicalError(head, body) {
            return directAnswer(DialectRenderer.rendered(for: canonical, app: app), requestID: requestID, dates: &dates)
        }
        return (clientHead(head, length: body.readableBytes, requestID: requestID, dates: &dates), body)
    }

    func directAnswer(_ rendered: RenderedAnswer, requestID: String, dates: inout HTTPDateCache) -> (HTTPResponseHead, ByteBuffer) {
        var headers = HTTPHeaders()
        headers.reserveCapacity(rendered.headers.count + 4)
        for field in rendered.headers { headers.add(name: field.name.rawName, value: field.value) }
        headers.add(name: "content-length", value: String(rendered.body.readableBytes))
        headers.add(name: "date", value: dates.now())
        addGatewayHeaders(to: &headers, requestID: requestID)
        return (HTTPResponseHead(version: .http1_1, status: .init(statusCode: rendered.status.code), headers: headers), rendered.body)
    }

    /// A service's head as the client gets it on the direct path: `length` (an answer in hand)
    /// replaces the service's own; a streamed answer keeps what the service said.
    func clientHead(_ head: HTTPResponseHead, length: Int?, requestID: String, dates: inout HTTPDateCache) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        headers.reserveCapacity(head.headers.count + 4)
        var dated = false
        for (name, value) in head.headers {
            // The length sorts out all but one candidate before any byte is compared.
            switch name.utf8.count {
            case 14 where length != nil && name.isASCII(caseInsensitivelyEqualTo: "content-length"),
                 6 where name.isASCII(caseInsensitivelyEqualTo: "server"),
                 12 where name.isASCII(caseInsensitivelyEqualTo: InternalHeader.requestID):
                continue
            case 4 where name.isASCII(caseInsensitivelyEqualTo: "date"):
                dated = true
            default:
                if HeaderRules.isHopByHop(name) { continue }
            }
            headers.add(name: name, value: value)
        }
        if let length { headers.add(name: "content-length", value: String(length)) }
        if !dated { headers.add(name: "date", value: dates.now()) }
        addGatewayHeaders(to: &headers, requestID: requestID)
        return HTTPResponseHead(version: .http1_1, status: head.status, headers: headers)
    }

    private func addGatewayHeaders(to headers: inout HTTPHeaders, requestID: String) {
        headers.add(name: InternalHeader.requestID, value: requestID)
        // As the router's answers say (a service's own `Server` would say which service answered).
        headers.add(name: "server", value: common.service.rawValue)
    }

    private static func canonicalError(_ head: HTTPResponseHead, _ body: ByteBuffer) -> CanonicalError? {
        guard head.status.code >= 400 else { return nil }
        return try? JSONCoding.decoder.decode(CanonicalError.self, from: body)
    }

    func responseHeaders(_ headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers where !HeaderRules.isHopByHop(name) {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return fields
    }

    /// The common case decided without suspending, on NIO's head before any conversion: a routed
    /// HTTP/1.1 request with a cached, valid app key (when it needs one), within the rate limits,
    /// with a small body. nil sends the request the general way (`handle`), which also answers
    /// every refusal.
    func directForward(_ head: HTTPRequestHead, remoteIP: String?) -> DirectForward? {
        guard head.method != .HEAD, head.version == .http1_1, let facts = DirectHeaderFacts(head.headers) else { return nil }
        var bodyLength = 0
        if let length = facts.contentLength {
            guard let value = Int(length), value <= Self.bufferedBodyLimit, value <= configuration.maxBodyBytes else { return nil }
            bodyLength = value
        }
        let target = head.uri
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        guard let route = routes.match(method: head.method.rawValue, path: path) else { return nil }
        var app: AppInfo?
        if route.appKey != AppKeyRule.none, let key = facts.appKey {
            guard case .some(.some(let cached)) = apps.cachedApp(forKey: key) else { return nil }
            app = cached
        }
        if route.appKey == .required, app == nil { return nil }
        let clientIP = clientIP(forwardedFor: facts.forwardedFor, remoteIP)
        guard wait(app: app, clientIP: clientIP) == nil else { return nil }
        let requestID = RequestIDMiddleware.requestID(offered: facts.requestID)
        return DirectForward(
            service: route.service, app: app, route: route.pattern, path: path, requestID: requestID, bodyLength: bodyLength,
            head: upstreamHead(
                method: head.method, uri: target, fields: head.headers, count: head.headers.count,
                app: app, requestID: requestID, clientIP: clientIP
            )
        )
    }

    /// What becomes of a `/socket.io/` WebSocket upgrade (nil for any other request): the same key
    /// and rate-limit checks as HTTP, answered in the app's dialect, or a splice to chat-svc. A key
    /// not yet in the cache is resolved first (`resolveKey`), then asked again.
    func admitSocket(_ head: HTTPRequestHead, remoteIP: String?) -> SocketAdmission? {
        guard head.method == .GET, head.headers.first(name: "upgrade")?.lowercased() == "websocket",
              Self.isSocketIOWebSocket(head.uri) else { return nil }
        let requestID = RequestIDMiddleware.requestID(offered: head.headers.first(name: InternalHeader.requestID))
        var app: AppInfo?
        if let key = head.headers.first(name: "sesackey") {
            switch apps.cachedApp(forKey: key) {
            case .none: return .resolveKey(key)
            case .some(.none): return .refuse(DialectRenderer.rendered(for: CanonicalError(code: .appKeyInvalid, message: "unknown app key"), app: nil), requestID: requestID)
            case .some(.some(let cached)): app = cached
            }
        }
        let clientIP = clientIP(forwardedFor: head.headers.first(name: "x-forwarded-for"), remoteIP)
        if let wait = wait(app: app, clientIP: clientIP) {
            let error = CanonicalError(code: .rateLimited, message: "too many requests")
            return .refuse(DialectRenderer.rendered(for: error, app: app, headers: [.retryAfter: String(Int(wait.rounded(.up)))]), requestID: requestID)
        }
        var upstream = upstreamHead(
            method: .GET, uri: head.uri, fields: head.headers, count: head.headers.count, app: app, requestID: requestID, clientIP: clientIP
        )
        // Hop-by-hop, so not copied: the upgrade is asked of chat-svc anew.
        upstream.headers.add(name: "connection", value: "Upgrade")
        upstream.headers.add(name: "upgrade", value: "websocket")
        return .splice(DirectUpgrade(app: app, requestID: requestID, head: upstream))
    }

    enum SocketAdmission {
        case splice(DirectUpgrade)
        case refuse(RenderedAnswer, requestID: String)
        case resolveKey(String)
    }

    /// Engine.IO's WebSocket transport: `/socket.io/…?transport=websocket`.
    static func isSocketIOWebSocket(_ target: String) -> Bool {
        let uri = URI(target)
        return uri.path.hasPrefix("/socket.io") && uri.queryParameters["transport"] == "websocket"
    }

    /// When the service cannot be reached.
    func unavailable(_ service: ServiceName, app: AppInfo?) -> RenderedAnswer {
        DialectRenderer.rendered(for: CanonicalError(code: .unavailable, message: "\(service.rawValue) unavailable"), app: app)
    }
}
