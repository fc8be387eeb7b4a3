import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import ServiceKit

/// The general path through Hummingbird's router: every request the direct path does not take
/// (refusals, uploads, keys not yet cached, `/health`, the attendance page). The policy decides;
/// admitted requests are forwarded with their bodies passed in one piece or streamed.
struct ProxyRoutes: Sendable {
    let policy: GatewayPolicy
    let upstream: Upstream

    /// Request bodies up to this size are passed in one piece; larger ones (uploads) stream.
    static let bufferedBodyLimit = 256 << 10

    func register(on router: Router<GlintRequestContext>) {
        router.get("/health") { _, _ in await suiteHealth() }
        router.get("/event-application") { request, context in
            do throws(GatewayPolicy.Refusal) {
                let admission = try await policy.admit(policyRequest(request, context))
                return AttendancePage.response(appKey: admission.app == nil ? nil : request.headers[.sesacKey])
            } catch {
                return error.answer.response
            }
        }
        for method in [HTTPRequest.Method.get, .head, .post, .put, .delete, .patch, .options] {
            // `**` needs at least one segment; "/" is routed too so that it also gets a dialect 444.
            for path in ["/", "**"] {
                router.on(RouterPath(path), method: method) { request, context in try await handle(request, context: context) }
            }
        }
    }

    func handle(_ request: Request, context: GlintRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        let admission: GatewayPolicy.Admission
        do throws(GatewayPolicy.Refusal) {
            admission = try await policy.admit(policyRequest(request, context))
        } catch {
            let response = error.answer.response
            logged(request, context, route: Self.unmatchedRoute(request.uri.path), app: nil, status: response.status, since: start)
            return response
        }
        let response: Response
        do {
            response = try await forward(request, admission, context: context)
        } catch let error as ServiceError {
            if error.code == .unavailable { context.logger.warning("gateway error", metadata: ["error": "\(error.message)"]) }
            response = DialectRenderer.rendered(for: error.canonical, app: admission.app, paginated: admission.route.paginated).response
        }
        logged(request, context, route: admission.route.pattern, app: admission.app, status: response.status, since: start)
        return response
    }

    /// A refused request's route in the request log: its first segment (a whole unknown path
    /// could carry anything).
    static func unmatchedRoute(_ path: String) -> String {
        "/" + (path.split(separator: "/").first.map { String($0.prefix(40)) } ?? "") + (path.split(separator: "/").count > 1 ? "/…" : "")
    }

    private func logged(
        _ request: Request, _ context: GlintRequestContext, route: String, app: AppInfo?, status: HTTPResponse.Status,
        since start: ContinuousClock.Instant
    ) {
        policy.requestLog.record(
            status: status.code,
            RequestLog.Ended(
                method: request.method.rawValue, route: route, start: start, app: app, requestID: context.requestID,
                authorization: request.headers[.authorization]))
    }

    private func policyRequest(_ request: Request, _ context: GlintRequestContext) -> GatewayPolicy.Request {
        GatewayPolicy.Request(
            method: request.method.rawValue, path: request.uri.path[...], appKey: request.headers[.sesacKey],
            clientIP: policy.clientIP(forwardedFor: request.headers[.forwardedFor], remoteIP: context.remoteAddress?.ipAddress),
            contentLength: request.headers[.contentLength].flatMap(Int.init)
        )
    }

    private func forward(_ request: Request, _ admission: GatewayPolicy.Admission, context: GlintRequestContext) async throws -> Response {
        let service = admission.route.service
        let head = policy.upstreamHead(request.head, admission: admission, requestID: context.requestID)
        let length = request.headers[.contentLength].flatMap(Int.init)
        if let length, length <= Self.bufferedBodyLimit {
            // Small bodies (JSON) go in one piece: much cheaper than a streamed upload.
            let body: UpstreamRequest.Body = length > 0 ? .bytes(try await request.body.collect(upTo: length)) : .none
            return answer(try await send(service, UpstreamRequest(head: head, body: body), gate: nil), admission)
        } else if length != nil || request.headers[.transferEncoding] != nil {
            let gate = LimitedBody<RequestBody>.Gate()
            let body = LimitedBody(base: request.body, limit: policy.configuration.maxBodyBytes, gate: gate)
            let response: UpstreamResponse
            do {
                response = try await send(service, UpstreamRequest(head: head, body: .stream(body)), gate: gate)
            } catch {
                await gate.close()
                throw error
            }
            return Self.closing(gate, after: answer(response, admission))
        } else {
            return answer(try await send(service, UpstreamRequest(head: head, body: .none), gate: nil), admission)
        }
    }

    private func send(_ service: ServiceName, _ request: UpstreamRequest, gate: LimitedBody<RequestBody>.Gate?) async throws -> UpstreamResponse {
        do {
            return try await upstream.forward(service, request)
        } catch {
            if gate?.tripped == true { throw ServiceError(.payloadTooLarge, "request body too large") }
            throw ServiceError.unavailable(service)
        }
    }

    private func answer(_ response: UpstreamResponse, _ admission: GatewayPolicy.Admission) -> Response {
        switch response.body {
        case .buffered(let buffer):
            return policy.answer(response.head, buffer, app: admission.app, paginated: admission.route.paginated).response
        case .stream(let stream):
            return Response(
                status: .init(code: Int(response.head.status.code)), headers: policy.responseFields(response.head.headers),
                body: .init(asyncSequence: stream)
            )
        }
    }

    /// An upload's answer may come while the client is still sending. The answer is written in
    /// full first (a client may wait for it), then the pump is stopped before Hummingbird reads
    /// what is left of the body.
    private static func closing(_ gate: LimitedBody<RequestBody>.Gate, after response: Response) -> Response {
        var response = response
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                await gate.close()
                throw error
            }
            await gate.close()
        }
        return response
    }

    /// Every backend's health, asked concurrently; 503 unless all are ok.
    private func suiteHealth() async -> Response {
        let reports = await withTaskGroup(of: (ServiceName, ServiceHealth).self) { group in
            for service in ServiceName.backends {
                group.addTask { (service, await upstream.health(service)) }
            }
            var reports: [String: ServiceHealth] = [ServiceName.gateway.rawValue: ServiceHealth(status: "ok", pid: getpid())]
            for await (service, health) in group { reports[service.rawValue] = health }
            return reports
        }
        let healthy = reports.values.allSatisfy { $0.status == "ok" }
        return JSONCoding.response(
            status: healthy ? .ok : .serviceUnavailable, body: SuiteHealth(status: healthy ? "ok" : "degraded", services: reports))
    }
}
