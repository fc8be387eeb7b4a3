import Contracts
import Foundation
import HTTPTypes
import Hummingbird
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

    /// Headers that describe one hop, not the message (RFC 9110 §7.6.1), plus `host`.
    private static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization",
        "te", "trailer", "transfer-encoding", "upgrade", "host",
    ]

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

    /// A WebSocket upgrade on `/socket.io/`: the same key and rate-limit checks as HTTP. A
    /// refused upgrade goes on as plain HTTP, where `handle` answers the error in the app's dialect.
    func admitWebSocket(_ head: HTTPRequest, remoteAddress: SocketAddress?) async -> WebSocketAdmission {
        var app: AppInfo?
        if let key = head.headerFields[.sesacKey] {
            guard let found = try? await apps.app(forKey: key) else { return .refused }
            app = found
        }
        guard wait(app: app, clientIP: clientIP(head.headerFields, remoteAddress)) == nil else { return .refused }
        return .admitted(app: app, clientIP: clientIP(head.headerFields, remoteAddress))
    }

    enum WebSocketAdmission {
        case admitted(app: AppInfo?, clientIP: String)
        case refused
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
        clientIP(request.headers, context.remoteAddress)
    }

    private func clientIP(_ headers: HTTPFields, _ remoteAddress: SocketAddress?) -> String {
        if configuration.trustForwardedFor, let forwarded = headers[.forwardedFor],
           let first = forwarded.split(separator: ",").first {
            return first.trimmingCharacters(in: .whitespaces)
        }
        return remoteAddress?.ipAddress ?? "unknown"
    }

    private func forward(_ request: Request, to service: ServiceName, app: AppInfo?, context: GlintRequestContext) async throws -> Response {
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headers.count + 4)
        for field in request.headers {
            let name = field.name.canonicalName
            // The request id is added below, as the request-id middleware accepted or made it.
            if Self.hopByHop.contains(name) || name.hasPrefix(InternalHeader.prefix) || name == InternalHeader.requestID || field.name == .sesacKey { continue }
            headers.add(name: field.name.rawName, value: field.value)
        }
        headers.add(name: InternalHeader.secret, value: common.internalSecret)
        headers.add(name: InternalHeader.requestID, value: context.requestID)
        headers.add(name: InternalHeader.clientIP, value: clientIP(request, context))
        if let app { headers.add(name: InternalHeader.appID, value: app.appID) }

        let trip = LimitedBody<RequestBody>.Trip()
        let length = request.headers[.contentLength].flatMap(Int.init)
        let body: UpstreamRequest.Body
        if let length, length <= Self.bufferedBodyLimit {
            // Small bodies (JSON) go in one piece: much cheaper than a streamed upload.
            body = length > 0 ? .bytes(try await request.body.collect(upTo: length)) : .none
        } else if length != nil || request.headers[.transferEncoding] != nil {
            if length == nil { headers.add(name: "transfer-encoding", value: "chunked") }
            body = .stream(LimitedBody(base: request.body, limit: configuration.maxBodyBytes, trip: trip))
        } else {
            body = .none
        }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method.rawValue), uri: request.uri.description, headers: headers)

        let response: UpstreamResponse
        do {
            response = try await upstream.forward(service, UpstreamRequest(head: head, body: body))
        } catch {
            if trip.tripped { throw ServiceError(.payloadTooLarge, "request body too large") }
            throw ServiceError(.unavailable, "\(service.rawValue) unavailable")
        }
        let status = HTTPResponse.Status(code: Int(response.head.status.code))
        switch response.body {
        case .buffered(let buffer):
            if status.code >= 400, let canonical = try? JSONCoding.decoder.decode(CanonicalError.self, from: buffer) {
                // Canonical error bodies of services become the app's dialect; anything else passes as is.
                return DialectRenderer.response(for: canonical, app: app)
            }
            return Response(status: status, headers: responseHeaders(response.head.headers), body: .init(byteBuffer: buffer))
        case .stream(let stream):
            return Response(status: status, headers: responseHeaders(response.head.headers), body: .init(asyncSequence: stream))
        }
    }

    private func responseHeaders(_ headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers where !Self.hopByHop.contains(name.lowercased()) {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return fields
    }
}
