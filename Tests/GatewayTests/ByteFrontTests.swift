import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import ServiceKit
import Synchronization
import TestSupport
import XCTest

@testable import Gateway

/// The byte front: plain requests read and answered as bytes, the rest handed to NIO's parser
/// and the direct path behind it, on the same connection and in order.
final class ByteFrontTests: XCTestCase {
    typealias Fakes = GatewayTests.FakeServices

    func testPlainHeadsAreReadAndEverythingElseIsLeftToNIO() throws {
        func scan(_ text: String) -> PlainRequestHead.Scan { PlainRequestHead.scan(ByteBuffer(string: text)) }
        let plain = "GET /v1/posts?limit=5 HTTP/1.1\r\nHost: gateway\r\nSeSACKey:key-lslp  \r\nX-Empty:\r\nAuthorization: \tBearer a b\r\n\r\nNEXT"
        guard case .head(let head, let length) = scan(plain) else { return XCTFail("\(plain.debugDescription) is a plain head") }
        XCTAssertEqual(head.method, "GET")
        XCTAssertEqual(head.target, "/v1/posts?limit=5")
        XCTAssertEqual(head.fields.map(\.name), ["Host", "SeSACKey", "X-Empty", "Authorization"])
        XCTAssertEqual(head.fields.map(\.value), ["gateway", "key-lslp", "", "Bearer a b"])
        XCTAssertEqual(length, plain.utf8.count - 4, "the head ends at its blank line")

        for partial in ["", "GET / HTTP/1.1\r\n", "GET / HTTP/1.1\r\nHost: a\r\n\r"] {
            guard case .incomplete = scan(partial) else { return XCTFail("\(partial.debugDescription) is incomplete") }
        }
        let unusual = [
            "GET / HTTP/1.0\r\n\r\n", "get / HTTP/1.1\r\n\r\n", "GET http://a/ HTTP/1.1\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost : a\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\nB: c\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: caf\u{E9}\r\n\r\n", "GET / HTTP/1.1\r\nBad\u{1}: a\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\u{0}b\r\n\r\n",
            "GET / HTTP/1.1\r\n" + String(repeating: "X-A: 1\r\n", count: PlainRequestHead.maxFields + 1) + "\r\n",
            "GET / HTTP/1.1\r\nX-Long: " + String(repeating: "a", count: PlainRequestHead.maxLength) + "\r\n\r\n",
        ]
        for text in unusual {
            guard case .unusual = scan(text) else { return XCTFail("\(text.prefix(60).debugDescription) is left to NIO") }
        }
    }

    /// A plain request, one the front does not take (a chunked body), then a plain one again:
    /// answered in order, the second and third by the handlers behind the front.
    func testTheConnectionIsHandedOverAtTheFirstRequestTheFrontDoesNotTake() async throws {
        let fakes = DirectPathTests.echoingPath()
        try await GatewayTests.makeApp(fakes).test(.live) { client in
            _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
            let port = try XCTUnwrap(client.port)
            let chunked =
                "POST /v1/posts HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
            let answers = try await RawHTTP.exchange(
                port: port,
                "GET /v1/posts/plain HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\n\r\n" + chunked
                    + "GET /v1/posts/last HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\nConnection: close\r\n\r\n"
            )
            XCTAssertEqual(RawHTTP.statuses(answers), [200, 200, 200], answers)
            let order = ["/v1/posts/plain", #""path":"/v1/posts""#, "/v1/posts/last"].map { answers.range(of: $0)?.lowerBound }
            XCTAssertFalse(order.contains(nil), answers)
            XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), answers)
        }
        let received = fakes.received.withLock { $0.map(\.1) }
        XCTAssertEqual(received.map(\.head.uri), ["/v1/posts", "/v1/posts/plain", "/v1/posts", "/v1/posts/last"])
        guard case .stream = received[2].body else { return XCTFail("the chunked body went the router's way, streamed") }
    }

    /// Keys the cache does not know yet are asked of auth-svc by the front itself, once each, and
    /// the answers keep their order: a new key admitted, an unknown key refused in the app's way
    /// (420, by the router behind), then another new key.
    func testKeysNotCachedAreAskedOnceAndAnsweredInOrder() async throws {
        let fakes = DirectPathTests.echoingPath()
        let asked = Mutex<[String]>([])
        let appKeys = GatewayTests.appKeys { key in
            asked.withLock { $0.append(key) }
            return GatewayTests.apps[key]
        }
        try await GatewayTests.makeApp(fakes, appKeys: appKeys).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let answers = try await RawHTTP.exchange(
                port: port,
                "GET /v1/posts/first HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\n\r\n"
                    + "GET /v1/posts/refused HTTP/1.1\r\nHost: gateway\r\nSeSACKey: nope\r\n\r\n"
                    + "GET /v1/posts/last HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-glint\r\nConnection: close\r\n\r\n"
            )
            XCTAssertEqual(RawHTTP.statuses(answers), [200, 420, 200], answers)
            let order = ["/v1/posts/first", "/v1/posts/last"].map { answers.range(of: $0)?.lowerBound }
            XCTAssertFalse(order.contains(nil), answers)
            XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), answers)
        }
        XCTAssertEqual(asked.withLock { $0 }, ["key-lslp", "nope", "key-glint"], "each key asked once")
        XCTAssertEqual(fakes.received.withLock { $0.map(\.1.head.uri) }, ["/v1/posts/first", "/v1/posts/last"])
    }

    /// Heads and bodies arrive in whatever pieces TCP gives: each request is answered once, whole.
    func testRequestsArrivingInPiecesAreAnsweredOnceEach() async throws {
        let fakes = Fakes(answer: { _, request in
            guard case .bytes(let body) = request.body else { return Fakes.response(.ok, ["content-type": "text/plain"], "no body") }
            return Fakes.response(.ok, ["content-type": "text/plain"], "got " + String(buffer: body))
        })
        try await GatewayTests.makeApp(fakes).test(.live) { client in
            _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
            let port = try XCTUnwrap(client.port)
            let post = "POST /v1/posts HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\nContent-Length: 11\r\n\r\nhello world"
            let last = "GET /v1/posts HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\nConnection: close\r\n\r\n"
            let text = post + post + last
            let pieces = stride(from: 0, to: text.utf8.count, by: 7).map { ByteBuffer(bytes: Array(text.utf8).dropFirst($0).prefix(7)) }
            let answers = try await RawHTTP.exchange(port: port, pieces: pieces)
            XCTAssertEqual(RawHTTP.statuses(answers), [200, 200, 200], answers)
            XCTAssertEqual(answers.components(separatedBy: "got hello world").count, 3, answers)
        }
        XCTAssertEqual(fakes.received.withLock { $0.count }, 4)
    }

    /// A service's answer of unknown length goes to the client in chunks, as NIO's encoder would send it.
    func testAnAnswerOfUnknownLengthIsSentInChunks() async throws {
        let router = Router()
        router.get("/v1/posts/:id") { _, _ in
            let parts = ["first part, ", "second part"].map { ByteBuffer(string: $0) }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(asyncSequence: parts.async))
        }
        let market = try await LiveServer.start(router)
        try await GatewayTests.makeLiveApp(.market, at: market.url).test(.live) { client in
            _ = try await client.execute(uri: "/v1/posts/abc", method: .get, headers: [.sesacKey: "key-lslp"])
            let answer = try await RawHTTP.exchange(
                port: try XCTUnwrap(client.port), "GET /v1/posts/abc HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\nConnection: close\r\n\r\n")
            XCTAssertEqual(RawHTTP.statuses(answer), [200], answer)
            XCTAssertTrue(answer.lowercased().contains("transfer-encoding: chunked\r\n"), answer)
            XCTAssertFalse(answer.lowercased().contains("content-length"), answer)
            let body = try XCTUnwrap(answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n"))
            XCTAssertEqual(Self.unchunked(body), "first part, second part", answer)
        }
        await market.stop()
    }

    /// Graceful shutdown while the front awaits a service's answer: the answer is written, then
    /// the connection closes (it would otherwise wait for the client to go).
    func testShutdownDuringAnAnswerWritesItThenCloses() async throws {
        let (arrived, signal) = AsyncStream<Void>.makeStream()
        let fakes = Fakes(answer: { _, request in
            if request.head.uri == "/v1/posts/slow" {
                signal.finish()
                // The service is slow: shutdown begins while this answer is awaited.
                try await Task.sleep(for: .milliseconds(300))
            }
            return Fakes.response(.ok, ["content-type": "text/plain"], "answer for " + request.head.uri)
        })
        let reader = try await GatewayTests.makeApp(fakes).test(.live) { client in
            _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
            let port = try XCTUnwrap(client.port)
            let reader = Task {
                try await RawHTTP.exchangeUntilClosed(
                    port: port, "GET /v1/posts/slow HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\n\r\n", answers: 1, received: {})
            }
            for await _ in arrived {}
            return reader
        }
        let (text, closed) = try await reader.value
        XCTAssertTrue(closed, "the connection was closed once its answer was out")
        XCTAssertEqual(RawHTTP.statuses(text), [200], text)
        XCTAssertTrue(text.hasSuffix("answer for /v1/posts/slow"), text)
    }

    /// A chunked body's data, checked to end with the last chunk (bytes: "\r\n" is one `Character`).
    static func unchunked(_ text: String) -> String? {
        var rest = Array(text.utf8)[...]
        var data: [UInt8] = []
        while let lineEnd = rest.indices.first(where: { rest[$0] == 13 }), lineEnd + 1 < rest.endIndex, rest[lineEnd + 1] == 10 {
            guard let size = Int(String(decoding: rest[..<lineEnd], as: UTF8.self), radix: 16) else { return nil }
            rest = rest[(lineEnd + 2)...]
            if size == 0 { return Array(rest) == [13, 10] ? String(decoding: data, as: UTF8.self) : nil }
            guard rest.count >= size + 2 else { return nil }
            data += rest.prefix(size)
            rest = rest.dropFirst(size + 2)
        }
        return nil
    }
}
