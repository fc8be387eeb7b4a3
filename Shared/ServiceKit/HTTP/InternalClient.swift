import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOHTTP1

/// Service-to-service JSON over HTTP. Every call carries the internal secret and the request id;
/// canonical errors of the callee come back as `ServiceError` with the same code, and a callee
/// that cannot be reached is `unavailable` (503) for our caller.
public struct InternalClient: Sendable {
    public let http: HTTPClient
    private let configuration: CommonConfiguration
    private let timeout: TimeAmount

    public init(http: HTTPClient, configuration: CommonConfiguration, timeout: TimeAmount = .seconds(10)) {
        self.http = http
        self.configuration = configuration
        self.timeout = timeout
    }

    public func get<Answer: Decodable>(
        _ service: ServiceName, _ path: String, headers: [(String, String)] = [], requestID: String? = nil, as _: Answer.Type
    ) async throws -> Answer {
        let data = try await call(.GET, service, path, body: nil, headers: headers, requestID: requestID)
        return try decode(Answer.self, data, from: service)
    }

    public func post<Answer: Decodable>(
        _ service: ServiceName, _ path: String, body: some Encodable, headers: [(String, String)] = [], requestID: String? = nil,
        as _: Answer.Type
    ) async throws -> Answer {
        let data = try await call(.POST, service, path, body: JSONCoding.encode(body), headers: headers, requestID: requestID)
        return try decode(Answer.self, data, from: service)
    }


    private func call(
        _ method: HTTPMethod, _ service: ServiceName, _ path: String, body: ByteBuffer?, headers: [(String, String)], requestID: String?
    ) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: configuration.url(of: service) + path)
        request.method = method
        request.headers.add(name: InternalHeader.secret, value: configuration.internalSecret)
        if let requestID { request.headers.add(name: InternalHeader.requestID, value: requestID) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(body)
        }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: timeout)
        } catch {
            throw ServiceError(.unavailable, "\(service.rawValue) unavailable")
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

    private func decode<Answer: Decodable>(_: Answer.Type, _ buffer: ByteBuffer, from service: ServiceName) throws -> Answer {
        do {
            return try JSONCoding.decoder.decode(Answer.self, from: buffer)
        } catch {
            throw ServiceError(.internalError, "unexpected answer from \(service.rawValue)")
        }
    }
}
