import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Plain HTTP calls from tests to real processes.
package enum HTTPProbe {
    package struct Answer: Sendable {
        package let status: Int
        package let headers: HTTPHeaders
        package let body: ByteBuffer
    }

    package static func call(
        _ method: HTTPMethod = .GET, _ url: String, headers: [(String, String)] = [], body: ByteBuffer? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(body) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let buffer = try await response.body.collect(upTo: 16 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: buffer)
    }

    /// Repeats `probe` until it returns a value or the deadline passes: for conditions that
    /// become true at a moment the test cannot observe directly (a restarted process listening).
    package static func eventually<T: Sendable>(
        within timeout: Duration, every interval: Duration = .milliseconds(50), _ probe: @Sendable () async -> T?
    ) async -> T? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = await probe() { return value }
            try? await Task.sleep(for: interval)
        }
        return nil
    }
}
