import Contracts
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import ServiceClients
import ServiceKit
import XCTest

@testable import Gateway

/// The pooled connections' own HTTP/1.1: answers read from bytes in any pieces (`UpstreamAnswerReader`,
/// `UpstreamHead`), requests written as bytes, and the client's head written from a service's
/// lines exactly as the string path writes it.
final class UpstreamWireTests: XCTestCase {
    private struct Answer: Equatable {
        var status: UInt
        var lines: String
        var body: String
    }

    /// Feeds `wire` in pieces of `size` bytes and collects the answers to `methods`, one after the other.
    private func read(_ wire: String, pieces size: Int, methods: [HTTPMethod], close: Bool = false) throws -> [Answer] {
        var reader = UpstreamAnswerReader()
        var answers: [Answer] = []
        var methods = methods[...]
        reader.expect(answerTo: methods.removeFirst())
        let bytes = Array(wire.utf8)
        func drain() throws {
            while let event = try reader.next() {
                switch event {
                case .head(let head):
                    answers.append(Answer(status: head.status.code, lines: String(buffer: head.lines), body: ""))
                case .body(let part):
                    answers[answers.count - 1].body += String(buffer: part)
                case .end:
                    if let method = methods.popFirst() { reader.expect(answerTo: method) }
                }
            }
        }
        for start in stride(from: 0, to: bytes.count, by: size) {
            reader.read(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]))
            try drain()
        }
        if close, case .end = reader.closed() { XCTAssertTrue(methods.isEmpty) }
        return answers
    }

    func testAnswersAreReadWholeFromAnyPieces() throws {
        let wire =
            "HTTP/1.1 100 Continue\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"a\":\"bcd\"}"
            + "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nX-A:  spaced \t\r\n\r\n"
            + "5;name=value\r\nhello\r\nA\r\n, world!!!\r\n0\r\nTrailer: x\r\n\r\n"
            + "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
            + "HTTP/1.1 404 Not Found\r\ncontent-length: 2\r\n\r\n{}"
        let expected = [
            Answer(status: 200, lines: "Content-Type: application/json\r\nContent-Length: 11\r\n", body: "{\"a\":\"bcd\"}"),
            Answer(status: 200, lines: "Transfer-Encoding: gzip, chunked\r\nX-A:  spaced \t\r\n", body: "hello, world!!!"),
            Answer(status: 204, lines: "Content-Length: 0\r\n", body: ""),
            // The answer to HEAD has no body whatever its length says.
            Answer(status: 200, lines: "Content-Length: 5\r\n", body: ""),
            Answer(status: 404, lines: "content-length: 2\r\n", body: "{}"),
        ]
        for size in [1, 2, 3, 7, 16, 64, wire.utf8.count] {
            XCTAssertEqual(try read(wire, pieces: size, methods: [.POST, .GET, .DELETE, .HEAD, .GET]), expected, "pieces of \(size)")
        }
    }

    func testAnAnswerWithoutLengthEndsWithTheConnection() throws {
        let wire = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of this, until the close"
        var reader = UpstreamAnswerReader()
        reader.expect(answerTo: .GET)
        reader.read(ByteBuffer(string: wire))
        guard case .head(let head) = try reader.next() else { return XCTFail("a head") }
        XCTAssertEqual(head.body, .untilClose)
        XCTAssertFalse(head.keepAlive, "the connection ends with the answer")
        guard case .body(let body) = try reader.next() else { return XCTFail("its body") }
        XCTAssertEqual(String(buffer: body), "all of this, until the close")
        XCTAssertNil(try reader.next())
        guard case .end = reader.closed() else { return XCTFail("the close ends it") }
    }

    func testHeadsSayWhetherTheConnectionGoesOn() throws {
        func head(_ text: String, method: HTTPMethod = .GET) -> UpstreamHead? {
            guard case .head(let head, let length) = UpstreamHead.scan(ByteBuffer(string: text + "rest"), method: method) else { return nil }
            XCTAssertEqual(length, text.utf8.count)
            return head
        }
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")?.keepAlive, true)
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")?.keepAlive, false)
        XCTAssertEqual(head("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")?.keepAlive, false)
        XCTAssertEqual(head("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n")?.keepAlive, true)
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n")?.keepAlive, false, "length and chunks")
        XCTAssertEqual(
            head("HTTP/1.1 200\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n")?.body, .length(3), "no reason phrase; a repeated length")
        let fields = head("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Empty:\r\nX-A: b , c \r\nContent-Length: 2\r\n\r\n")
        XCTAssertEqual(fields?.status, .created)
        XCTAssertEqual(
            fields?.headers.map { "\($0.name)=\($0.value)" }, ["Content-Type=application/json", "X-Empty=", "X-A=b , c", "Content-Length=2"])
        XCTAssertEqual(fields?.value(of: "content-type"), "application/json")

        let malformed = [
            "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "http/1.1 200 OK\r\n\r\n", "HTTP/1.1 200 OK\nA: b\r\n\r\n",
            "HTTP/1.1 200 OK\r\nA : b\r\n\r\n", "HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n", "HTTP/1.1 200 OK\r\nA: b\u{1}c\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: UpstreamHead.maxLength) + "\r\n\r\n",
        ]
        for text in malformed {
            guard case .malformed = UpstreamHead.scan(ByteBuffer(string: text), method: .GET) else {
                return XCTFail("\(text.prefix(60).debugDescription) is not an answer")
            }
        }
        guard case .incomplete = UpstreamHead.scan(ByteBuffer(string: "HTTP/1.1 200 OK\r\nA: b\r\n"), method: .GET) else {
            return XCTFail("a head without its blank line waits")
        }
    }

    func testBadChunksAndBytesNobodyAskedForAreRefused() throws {
        for body in ["x\r\n", "5\r\nhelloXX", "-1\r\n", String(repeating: "f", count: 16) + "\r\n", ";ext\r\n"] {
            var reader = UpstreamAnswerReader()
            reader.expect(answerTo: .GET)
            reader.read(ByteBuffer(string: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + body))
            XCTAssertThrowsError(try { while try reader.next() != nil {} }(), body.debugDescription)
        }
        var reader = UpstreamAnswerReader()
        reader.read(ByteBuffer(string: "HTTP/1.1 200 OK\r\n\r\n"))
        XCTAssertThrowsError(try reader.next(), "no request was sent")
    }

    func testRequestsAreWrittenWithHostAndFraming() {
        func written(_ method: HTTPMethod, _ headers: HTTPHeaders, _ body: UpstreamRequest.Body) -> (String, BodyFraming) {
            var buffer = ByteBuffer()
            var head = UpstreamRequestHead(method: method, uri: "/v1/a?b=c")
            for (name, value) in headers { head.add(name, value) }
            let request = UpstreamRequest(head: head, body: body)
            let framing = request.writeHead(host: "127.0.0.1:8081", to: &buffer)
            return (String(buffer: buffer), framing)
        }
        let get = written(.GET, ["X-A": "b"], .none)
        XCTAssertEqual(get.0, "GET /v1/a?b=c HTTP/1.1\r\nX-A: b\r\nhost: 127.0.0.1:8081\r\n\r\n")
        XCTAssertEqual(get.1, .none)
        let empty = written(.POST, [:], .none)
        XCTAssertEqual(empty.0, "POST /v1/a?b=c HTTP/1.1\r\nhost: 127.0.0.1:8081\r\ncontent-length: 0\r\n\r\n")
        let small = written(.PUT, [:], .bytes(ByteBuffer(string: "{}")))
        XCTAssertEqual(small.0, "PUT /v1/a?b=c HTTP/1.1\r\nhost: 127.0.0.1:8081\r\ncontent-length: 2\r\n\r\n")
        XCTAssertEqual(small.1, .length)
        let told = written(.POST, ["Content-Length": "2"], .bytes(ByteBuffer(string: "{}")))
        XCTAssertEqual(told.0, "POST /v1/a?b=c HTTP/1.1\r\nContent-Length: 2\r\nhost: 127.0.0.1:8081\r\n\r\n", "the client's length stands")
        let streamed = written(.POST, [:], .stream(LimitedBody(base: RequestBody(buffer: ByteBuffer()), limit: 1, gate: .init())))
        XCTAssertEqual(streamed.0, "POST /v1/a?b=c HTTP/1.1\r\nhost: 127.0.0.1:8081\r\ntransfer-encoding: chunked\r\n\r\n")
        XCTAssertEqual(streamed.1, .chunked)
        XCTAssertEqual(
            BodyFraming.chunked.frame(ByteBuffer(string: "hello, world!!!"), allocator: ByteBufferAllocator()),
            ByteBuffer(string: "f\r\nhello, world!!!\r\n"))
        XCTAssertEqual(BodyFraming.chunked.frame(nil, allocator: ByteBufferAllocator()), ByteBuffer(string: "0\r\n\r\n"))
    }

    /// The byte front writes a service's head from its lines; every other path makes NIO's head
    /// and writes that. Both must say the same.
    func testTheClientHeadFromBytesIsTheOneFromStrings() throws {
        let policy = GatewayPolicy.testing()
        // The gateway's own `Date` is the second's: the two writes may fall either side of one.
        func undated(_ buffer: ByteBuffer) -> String {
            String(buffer: buffer).replacingOccurrences(of: "date: [^\r]*\r\n", with: "date: now\r\n", options: .regularExpression)
        }
        let heads = [
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nServer: market-svc\r\nx-request-id: theirs\r\n"
                + "Connection: keep-alive\r\n\r\n",
            "HTTP/1.1 201 Created\r\nDate: Thu, 26 Nov 2026 10:00:00 GMT\r\nCache-Control: no-store\r\ncontent-length: 11\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 300000\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
            "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nX-A: b\r\n\r\n",
            "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n",
        ]
        for text in heads {
            guard case .head(let head, _) = UpstreamHead.scan(ByteBuffer(string: text), method: .GET) else { return XCTFail(text) }
            for length in [11, nil] {
                var dates = HTTPDateCache()
                var fromBytes = ByteBuffer()
                let framing = policy.writeClientHead(head, length: length, requestID: "r-1", dates: &dates, to: &fromBytes)
                var fromStrings = ByteBuffer()
                let stringFraming = AnswerBytes.writeHead(
                    policy.clientHead(head.http, length: length, requestID: "r-1", dates: &dates), to: &fromStrings)
                XCTAssertEqual(undated(fromBytes), undated(fromStrings), "\(text.debugDescription), length \(String(describing: length))")
                XCTAssertEqual(framing, stringFraming)
            }
        }
    }

    /// The byte fronts write a service's request head from the client's lines; NIO's parser and
    /// the router from strings. Both pass the same fields and add the same.
    func testTheUpstreamHeadFromLinesIsTheOneFromStrings() throws {
        let policy = GatewayPolicy.testing()
        let app = AppInfo(appID: "app-1", name: "GLINT", profile: .lslp, flags: AppFlags(), mount: "glint")
        let text =
            "POST /v1/posts?limit=5 HTTP/1.1\r\nHost: api.example.com\r\nSeSACKey: key-1\r\nConnection: keep-alive\r\n"
            + "Authorization: Bearer a.b.c\r\nx-internal-app-id: forged\r\nx-request-id: theirs\r\nContent-Type: application/json\r\n"
            + "Content-Length: 2\r\nTE: trailers\r\n\r\n"
        guard case .head(let plain, _) = PlainRequestHead.scan(ByteBuffer(string: text)) else { return XCTFail(text) }
        for app in [app, nil] {
            let fromLines = policy.upstreamHead(plain, method: .POST, uri: "/posts?limit=5", app: app, requestID: "r-1", clientIP: "10.0.0.1")
            let fromStrings = policy.upstreamHead(
                method: .POST, uri: "/posts?limit=5", fields: plain.fields, app: app, requestID: "r-1", clientIP: "10.0.0.1")
            XCTAssertEqual(String(buffer: fromLines.lines), String(buffer: fromStrings.lines))
            XCTAssertTrue(fromLines.hasLength)
            XCTAssertTrue(fromStrings.hasLength)
            XCTAssertEqual(fromLines.value(of: "authorization"), "Bearer a.b.c")
            let lines = String(buffer: fromLines.lines).split(separator: "\r\n").map(String.init)
            XCTAssertEqual(lines.first, "POST /posts?limit=5 HTTP/1.1")
            XCTAssertEqual(
                Array(lines.dropFirst().filter { !$0.hasPrefix(InternalHeader.prefix) }),
                ["Authorization: Bearer a.b.c", "Content-Type: application/json", "Content-Length: 2", "x-request-id: r-1"],
                "hop-by-hop, the key, the client's request id and internal names stay at the gateway")
            XCTAssertEqual(fromLines.value(of: InternalHeader.appID), app?.appID)
            XCTAssertEqual(
                fromLines.value(of: InternalHeader.publicBase), app.map { _ in "http://api.example.com/glint" }, "the mount's base from the host")
        }
    }
}
