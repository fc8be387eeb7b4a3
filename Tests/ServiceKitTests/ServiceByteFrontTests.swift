import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

/// A service's byte front: plain requests read and answered as bytes, in order, the rest handed
/// to Hummingbird's HTTP/1 channel on the same connection; answers framed as Hummingbird frames
/// them, large ones sent in parts.
final class ServiceByteFrontTests: XCTestCase {
    struct Echo: ResponseEncodable { var method: String; var path: String; var body: String }

    /// Larger than the front gathers before it sends in parts.
    static let bigLength = 600_000

    private func makeApp() throws -> some ApplicationProtocol {
        let common = TestEnvironment.common(.market, dataDirectory: try TestEnvironment.temporaryDirectory())
        return ServiceApplication.assemble(configuration: common, logger: TestEnvironment.logger) { group in
            for method in [HTTPRequest.Method.get, .post] {
                group.on("/echo/**", method: method) { request, context in
                    let body = try await request.body.collect(upTo: 1 << 20)
                    return Echo(method: request.method.rawValue, path: request.uri.path, body: String(buffer: body))
                }
            }
            group.get("/empty") { _, _ in HTTPResponse.Status.noContent }
            group.get("/big") { request, _ in
                let part = ByteBuffer(repeating: UInt8(ascii: "b"), count: Self.bigLength / 6)
                let write: @Sendable (inout any ResponseBodyWriter) async throws -> Void = { writer in
                    for _ in 0..<6 { try await writer.write(part) }
                    try await writer.finish(nil)
                }
                let known = request.uri.queryParameters["length"] == "known"
                return Response(status: .ok, body: ResponseBody(contentLength: known ? Self.bigLength : nil, write))
            }
        }.application()
    }

    private static var secret: String { "x-internal-secret: \(TestEnvironment.internalSecret)\r\n" }

    private static func get(_ path: String, _ extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: market\r\n\(secret)\(extra)\r\n"
    }

    private static func post(_ path: String, _ body: String) -> String {
        "POST \(path) HTTP/1.1\r\nHost: market\r\n\(secret)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    func testPipelinedRequestsAreAnsweredInOrderAndFramedAsHummingbirdFramesThem() async throws {
        try await makeApp().test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let answers = try await RawHTTP.exchange(
                port: port,
                Self.get("/echo/first") + Self.post("/echo/second", #"{"a":1}"#) + Self.get("/empty") + Self.post("/echo/empty", "")
                    + Self.get("/echo/last", "Connection: close\r\n"))
            XCTAssertEqual(RawHTTP.statuses(answers), [200, 200, 204, 200, 200], answers)
            let bodies = ["/echo/first", #"{\"a\":1}"#, "/echo/empty", "/echo/last"].map { answers.range(of: $0)?.lowerBound }
            XCTAssertFalse(bodies.contains(nil), answers)
            XCTAssertEqual(bodies.compactMap { $0 }, bodies.compactMap { $0 }.sorted(), answers)
            let heads = answers.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.lowercased() }
            for head in heads {
                XCTAssertTrue(head.contains("\r\ndate: "), head)
                XCTAssertTrue(head.contains("\r\nserver: market-svc\r\n"), head)
                XCTAssertTrue(head.contains("\r\nx-request-id: "), head)
            }
            let first = try XCTUnwrap(heads.first)
            let firstBody = try XCTUnwrap(first.components(separatedBy: "\r\n\r\n").dropFirst().first)
            XCTAssertTrue(first.contains("\r\ncontent-length: \(firstBody.utf8.count)\r\n"), first)
            XCTAssertTrue(first.contains("\r\ncontent-type: application/json; charset=utf-8\r\n"), first)
            XCTAssertFalse(heads[2].contains("content-length"), "a 204 has no body and says no length: \(heads[2])")
        }
    }

    func testARequestArrivingInPiecesIsAnsweredWhenWhole() async throws {
        try await makeApp().test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let request = Self.post("/echo/pieces", #"{"split":"body"}"#) + Self.get("/echo/after", "Connection: close\r\n")
            let bytes = Array(request.utf8)
            let cuts = [5, 40, bytes.count - 30, bytes.count - 12]
            let pieces = zip([0] + cuts, cuts + [bytes.count]).map { ByteBuffer(bytes: bytes[$0..<$1]) }
            let answers = try await RawHTTP.exchange(port: port, pieces: pieces)
            XCTAssertEqual(RawHTTP.statuses(answers), [200, 200], answers)
            XCTAssertTrue(answers.contains(#"{\"split\":\"body\"}"#), answers)
            XCTAssertTrue(answers.contains("/echo/after"), answers)
        }
    }

    /// A plain request, one the front does not take (a chunked body), then a plain one: answered
    /// in order, the last two by Hummingbird's channel behind the front.
    func testTheConnectionIsHandedToHummingbirdAtTheFirstRequestTheFrontDoesNotTake() async throws {
        try await makeApp().test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let chunked = "POST /echo/chunked HTTP/1.1\r\nHost: market\r\n\(Self.secret)Transfer-Encoding: chunked\r\n\r\n4\r\nab\"c\r\n0\r\n\r\n"
            let answers = try await RawHTTP.exchange(
                port: port, Self.get("/echo/plain") + chunked + Self.get("/echo/head-of-line", "Connection: close\r\n"))
            XCTAssertEqual(RawHTTP.statuses(answers), [200, 200, 200], answers)
            let order = ["/echo/plain", #"ab\"c"#, "/echo/head-of-line"].map { answers.range(of: $0)?.lowerBound }
            XCTAssertFalse(order.contains(nil), answers)
            XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), answers)

            // HEAD is Hummingbird's: the GET route's status and fields, its length, no body (the
            // GET after it on the same connection is framed right after the HEAD's fields).
            let head = try await RawHTTP.exchange(
                port: port, "HEAD /echo/x HTTP/1.1\r\nHost: market\r\n\(Self.secret)\r\n" + Self.get("/echo/y", "Connection: close\r\n"))
            XCTAssertEqual(RawHTTP.statuses(head), [200, 200], head)
            let parts = head.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.lowercased() }
            // The GET route runs for the HEAD (its echo says "HEAD"): the length of that answer.
            let length = #"{"method":"HEAD","path":"/echo/x","body":""}"#.utf8.count
            XCTAssertTrue(parts[0].contains("\r\ncontent-length: \(length)\r\n"), parts[0])
            XCTAssertTrue(parts[0].hasSuffix("\r\n\r\n"), "no body after a HEAD's fields: \(parts[0])")
            XCTAssertTrue(parts[1].contains("echo") && parts[1].contains("y\""), parts[1])
        }
    }

    func testLargeAnswersAreSentInPartsWithTheirLengthOrChunked() async throws {
        try await makeApp().test(.live) { client in
            let headers = TestEnvironment.fields()
            let chunked = try await client.execute(uri: "/big", method: .get, headers: headers)
            XCTAssertEqual(chunked.status, .ok)
            XCTAssertEqual(chunked.body.readableBytes, Self.bigLength)
            XCTAssertEqual(chunked.headers[.transferEncoding], "chunked")
            let known = try await client.execute(uri: "/big?length=known", method: .get, headers: headers)
            XCTAssertEqual(known.body.readableBytes, Self.bigLength)
            XCTAssertEqual(known.headers[.contentLength], String(Self.bigLength))
            XCTAssertNil(known.headers[.transferEncoding])
            let after = try await client.execute(uri: "/echo/after-big", method: .get, headers: headers)
            XCTAssertEqual(try JSON.object(after.body)["path"] as? String, "/echo/after-big")
        }
    }

    func testBodiesOverTheLimitAreHummingbirds() async throws {
        try await makeApp().test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let large = String(repeating: "x", count: (1 << 20) + 1)
            let answers = try await RawHTTP.exchange(
                port: port, Self.post("/echo/large", large) + Self.get("/echo/next", "Connection: close\r\n"))
            XCTAssertEqual(RawHTTP.statuses(answers), [413, 200], answers.prefix(600).description)
        }
    }

    func testMalformedLengthsAreHummingbirds() async throws {
        try await makeApp().test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let malformed = try await RawHTTP.exchange(
                port: port, "POST /echo/m HTTP/1.1\r\nHost: market\r\n\(Self.secret)Content-Length: 1x\r\nConnection: close\r\n\r\n{}")
            XCTAssertEqual(RawHTTP.statuses(malformed), [400], malformed)
        }
    }
}
