import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOHTTP1

/// Service-to-service JSON over HTTP, one declared `InternalEndpoint` at a time. Every call
/// carries the internal secret and, from `InternalCaller`, the app, the request id and (where the
/// callee checks it) the caller's token. Canonical errors of the callee come back as
/// `ServiceError` with the same code; a callee that cannot be reached is `unavailable` (503) for
/// our caller.
package struct InternalClient: Sendable {
    package let http: HTTPClient
    private let configuration: CommonConfiguration
    private let timeout: TimeAmount

    package init(http: HTTPClient, configuration: CommonConfiguration, timeout: TimeAmount = .seconds(10)) {
        self.http = http
        self.configuration = configuration
        self.timeout = timeout
    }

    /// Every replica's base URL of a service (for calls each replica answers for itself).
    package func replicas(of service: ServiceName) -> [String] {
        configuration.urls(of: service)
    }

    /// `replica`: one of `replicas(of:)`; the service's first otherwise.
    package func call<Parameter, Body, Answer>(
        _ endpoint: InternalEndpoint<Parameter, Body, Answer>, _ parameter: Parameter, body: Body, for caller: InternalCaller = .init(),
        replica: String? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: (replica ?? configuration.url(of: endpoint.service)) + endpoint.path(parameter))
        request.method = HTTPMethod(rawValue: endpoint.method.rawValue)
        request.headers.add(name: InternalHeader.secret, value: configuration.internalSecret)
        if let requestID = caller.requestID { request.headers.add(name: InternalHeader.requestID, value: requestID) }
        if let appID = caller.appID { request.headers.add(name: InternalHeader.appID, value: appID) }
        if let authorization = caller.authorization { request.headers.add(name: "authorization", value: authorization) }
        if Body.self != NoBody.self {
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(JSONCoding.encode(body))
        }
        let buffer = try await send(request, to: endpoint.service)
        do {
            return try JSONCoding.decoder.decode(Answer.self, from: buffer)
        } catch {
            throw ServiceError(.internalError, "unexpected answer from \(endpoint.service.rawValue)")
        }
    }

    /// A GET of what a service serves to apps (an uploaded file), answered as it comes — status,
    /// headers and at most `limit` bytes — for a caller that passes it on.
    package func fetch(
        _ service: ServiceName, _ path: String, headers: [(String, String)] = [], for caller: InternalCaller = .init(), limit: Int = 16 << 20
    ) async throws -> (status: Int, headers: HTTPHeaders, body: ByteBuffer) {
        var request = HTTPClientRequest(url: configuration.url(of: service) + path)
        request.headers.add(name: InternalHeader.secret, value: configuration.internalSecret)
        if let requestID = caller.requestID { request.headers.add(name: InternalHeader.requestID, value: requestID) }
        if let appID = caller.appID { request.headers.add(name: InternalHeader.appID, value: appID) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await http.execute(request, timeout: timeout)
            return (Int(response.status.code), response.headers, try await response.body.collect(upTo: limit))
        } catch {
            throw ServiceError.unavailable(service)
        }
    }

    private func send(_ request: HTTPClientRequest, to service: ServiceName) async throws -> ByteBuffer {
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: timeout)
        } catch {
            throw ServiceError.unavailable(service)
        }
        let buffer = try await response.body.collect(upTo: 16 << 20)
        guard (200..<300).contains(response.status.code) else {
            if let canonical = try? JSONCoding.decoder.decode(CanonicalError.self, from: buffer) {
                throw ServiceError(canonical.code, canonical.message)
            }
            throw ServiceError(.unavailable, "\(service.rawValue) answered \(response.status.code)")
        }
        return buffer
    }
}

extension InternalClient {
    package func call<Answer>(_ endpoint: InternalEndpoint<NoParameter, NoBody, Answer>, for caller: InternalCaller = .init()) async throws -> Answer
    {
        try await call(endpoint, NoParameter(), body: NoBody(), for: caller)
    }

    package func call<Answer>(
        _ endpoint: InternalEndpoint<String, NoBody, Answer>, _ parameter: String, for caller: InternalCaller = .init()
    ) async throws -> Answer {
        try await call(endpoint, parameter, body: NoBody(), for: caller)
    }

    package func call<Body, Answer>(
        _ endpoint: InternalEndpoint<NoParameter, Body, Answer>, body: Body, for caller: InternalCaller = .init()
    ) async throws -> Answer {
        try await call(endpoint, NoParameter(), body: body, for: caller)
    }
}

/// On whose behalf an internal call is made.
package struct InternalCaller: Sendable {
    /// The app the gateway resolved (`x-internal-app-id`).
    package var appID: String?
    /// The request this call is part of (`x-request-id`).
    package var requestID: String?
    /// The caller's own token, for endpoints that act as the caller (`Authorization`).
    package var authorization: String?

    package init(appID: String? = nil, requestID: String? = nil, authorization: String? = nil) {
        self.appID = appID
        self.requestID = requestID
        self.authorization = authorization
    }
}
