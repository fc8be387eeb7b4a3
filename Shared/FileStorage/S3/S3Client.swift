import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit

/// The S3 calls the file stores make, path-style (`<endpoint>/<bucket>/<key>`), every request
/// signed with `SigV4Signer` and its payload hashed: PutObject, GetObject (with `Range` and
/// `If-None-Match`, `Accept-Encoding: identity`), HeadObject, DeleteObject, ListObjectsV2. A
/// store that cannot be reached is `ServiceError` `unavailable`; any other failure names the
/// status it answered.
package struct S3Client: Sendable {
    package let bucketURL: S3BucketURL
    package let signer: SigV4Signer
    private let http: HTTPClient
    private let timeout: TimeAmount
    private let now: @Sendable () -> Date

    package init(
        bucketURL: S3BucketURL, signer: SigV4Signer, http: HTTPClient, timeout: TimeAmount = .seconds(30),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        (self.bucketURL, self.signer, self.http, self.timeout, self.now) = (bucketURL, signer, http, timeout, now)
    }

    /// What HeadObject tells of an object.
    package struct Head: Sendable, Equatable {
        package var size: Int
        package var etag: String?
        package var contentType: String?
    }

    /// One page of ListObjectsV2: keys with their sizes, and the token of the next page.
    package struct Listing: Sendable, Equatable {
        package var objects: [(key: String, size: Int)]
        package var next: String?

        package static func == (lhs: Listing, rhs: Listing) -> Bool {
            lhs.objects.map(\.key) == rhs.objects.map(\.key) && lhs.objects.map(\.size) == rhs.objects.map(\.size) && lhs.next == rhs.next
        }
    }

    /// Stores `body` at `key`; answers the object's ETag.
    @discardableResult
    package func put(_ key: String, _ body: ByteBuffer, contentType: String) async throws -> String? {
        let response = try await send(
            "PUT", key, headers: [("Content-Type", contentType), ("Content-Length", String(body.readableBytes))], body: body)
        try await expect(response, [200])
        return response.headers.first(name: "etag")
    }

    /// The object's answer for the caller to pass on: 200, 206, 304, 404 or 416, the body still
    /// to be read (streamed).
    package func get(_ key: String, range: String? = nil, ifNoneMatch: String? = nil) async throws -> HTTPClientResponse {
        var headers = [("Accept-Encoding", "identity")]
        if let range { headers.append(("Range", range)) }
        if let ifNoneMatch { headers.append(("If-None-Match", ifNoneMatch)) }
        var response = try await send("GET", key, headers: headers)
        try await expect(response, [200, 206, 304, 404, 416])
        // Some stores (rclone's) answer a range with 200 and its Content-Range: it is a part.
        if range != nil, response.status == .ok, response.headers.first(name: "content-range") != nil { response.status = .partialContent }
        return response
    }

    /// Nil when there is no such object.
    package func head(_ key: String) async throws -> Head? {
        let response = try await send("HEAD", key)
        if response.status == .notFound { return nil }
        try await expect(response, [200])
        return Head(
            size: Int(response.headers.first(name: "content-length") ?? "") ?? 0, etag: response.headers.first(name: "etag"),
            contentType: response.headers.first(name: "content-type"))
    }

    /// Removes the object; one already gone is no error.
    package func delete(_ key: String) async throws {
        try await expect(try await send("DELETE", key), [200, 204, 404])
    }

    /// Keys under `prefix` in key order, `maxKeys` at most per page.
    package func list(prefix: String, continuation: String? = nil, maxKeys: Int = 1000) async throws -> Listing {
        var query = [("list-type", "2"), ("prefix", prefix), ("max-keys", String(maxKeys))]
        if let continuation { query.append(("continuation-token", continuation)) }
        let response = try await send("GET", nil, query: query)
        try await expect(response, [200])
        return S3ListingParser.parse(String(buffer: try await response.body.collect(upTo: 8 << 20)))
    }

    /// A URL that lets whoever holds it GET the object for `expires` seconds.
    package func presignedURL(_ key: String, expires: Int) -> String {
        let path = bucketURL.path(of: key)
        let query = signer.presignedQuery(for: SigV4Signer.Request(method: "GET", host: bucketURL.host, path: path), expires: expires, at: now())
        return bucketURL.origin + path + "?" + query
    }

    private func send(
        _ method: String, _ key: String?, query: [(String, String)] = [], headers: [(String, String)] = [], body: ByteBuffer? = nil
    ) async throws -> HTTPClientResponse {
        let path = key.map(bucketURL.path(of:)) ?? bucketURL.bucketPath
        let payloadHash = body.map { SigV4Signer.payloadHash($0.readableBytesView) } ?? SigV4Signer.emptyPayloadHash
        let signed = signer.headers(
            for: SigV4Signer.Request(method: method, host: bucketURL.host, path: path, query: query, headers: headers),
            payloadHash: payloadHash, at: now())
        let queryText = query.isEmpty ? "" : "?" + SigV4Signer.canonicalQuery(query)
        var request = HTTPClientRequest(url: bucketURL.origin + path + queryText)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers + signed { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(body) }
        do {
            return try await http.execute(request, timeout: timeout)
        } catch {
            throw ServiceError(.unavailable, "the file store is unreachable")
        }
    }

    private func expect(_ response: HTTPClientResponse, _ statuses: Set<UInt>) async throws {
        guard !statuses.contains(response.status.code) else { return }
        let text = String(buffer: (try? await response.body.collect(upTo: 64 * 1024)) ?? ByteBuffer())
        let code = S3ListingParser.value(of: "Code", in: text) ?? "status \(response.status.code)"
        throw ServiceError(.unavailable, "the file store refused the request (\(code))")
    }
}
