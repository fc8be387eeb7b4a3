import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit
import TestSupport
import XCTest

/// Hostile and malformed input through the gateway to real auth-svc, market-svc and geo-svc
/// processes: each gets a clear 4xx in the app's dialect (or, for a client that never finishes
/// its request, a closed connection), and nothing is stored.
final class MalformedInputTests: XCTestCase {
    func testEveryMalformedRequestIsAClear4xxAndStoresNothing() async throws {
        let suite = try await AuthAndGateway.start(["GATEWAY_IDLE_TIMEOUT_SECONDS": "2"], with: [.market, .geo])
        do {
            let joined = try await suite.call(.POST, "/v1/users/join", json: #"{"email":"owner@glint.app","password":"pass1234!","nick":"owner"}"#)
            let token = try JSONDecoder().decode(AuthAnswer.self, from: joined.body).accessToken
            func send(
                _ method: HTTPMethod, _ path: String, contentType: String? = "application/json", body: ByteBuffer? = nil,
                headers: [(String, String)] = []
            ) async throws -> HTTPProbe.Answer {
                var all = [("SeSACKey", AuthAndGateway.appKey), ("Authorization", token)] + headers
                if let contentType { all.append(("Content-Type", contentType)) }
                return try await HTTPProbe.call(method, suite.gatewayURL + path, headers: all, body: body)
            }
            func expect(_ status: Int, _ answer: HTTPProbe.Answer, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
                XCTAssertEqual(answer.status, status, "\(label): \(answer.body.text.prefix(200))", file: file, line: line)
                let body = try JSON.object(answer.body, file: file, line: line)
                XCTAssertNotNil(body["message"] as? String, "\(label): the lslp dialect's {message}", file: file, line: line)
            }
            let bytes = { (text: String) in ByteBuffer(string: text) }
            let join = { (extra: String) in bytes(#"{"email":"x@glint.app","password":"pass1234!","nick":"x"\#(extra)}"#) }

            try expect(
                413, try await send(.POST, "/v1/posts", body: ByteBuffer(repeating: UInt8(ascii: " "), count: 40 << 20)),
                "a body over the gateway's limit")
            try expect(
                413,
                try await send(
                    .POST, "/v1/users/join", body: bytes(#"{"email":"a@glint.app","pad":""# + String(repeating: "x", count: 2 << 20) + #""}"#)),
                "a JSON body over the service's limit")
            try expect(
                400,
                try await send(
                    .POST, "/v1/posts/files", contentType: "multipart/form-data; boundary=XyZ",
                    body: bytes(
                        "--XyZ\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n\u{89}PNG")),
                "a truncated multipart body")
            // multipart-kit's parser stopped the process on this one (a header name byte above 0x7F).
            try expect(
                400,
                try await send(
                    .POST, "/v1/posts/files", contentType: "multipart/form-data; boundary=XyZ",
                    body: bytes("--XyZ\r\nContent-Dispositi\u{F6}n: form-data; name=\"files\"\r\n\r\nx\r\n--XyZ--\r\n")),
                "a part's header name beyond ASCII")
            try expect(
                400,
                try await send(
                    .POST, "/v1/users/join", contentType: "application/x-www-form-urlencoded",
                    body: bytes("email=x%40glint.app&password=pass1234!&nick=x")),
                "a form where JSON is expected")
            var invalidUTF8 = bytes(#"{"email":"u@glint.app","password":"pass1234!","nick":""#)
            invalidUTF8.writeBytes([0xFF, 0xFE])
            invalidUTF8.writeString(#""}"#)
            try expect(400, try await send(.POST, "/v1/users/join", body: invalidUTF8), "invalid UTF-8")
            try expect(
                400, try await send(.POST, "/v1/posts", body: bytes(#"{"category":"c","title":"t","content":"c","price":1e400}"#)),
                "a number too large")
            try expect(
                400, try await send(.POST, "/v1/posts", body: bytes(#"{"category":"c","title":"t","content":"c","price":99999999999999999999999}"#)),
                "an integer too large")
            for limit in ["-1", "0", "abc", "99999999999999999999", "1e3"] {
                try expect(400, try await send(.GET, "/v1/posts?limit=\(limit)", contentType: nil), "limit=\(limit)")
            }
            for (longitude, latitude) in [("abc", "37.5"), ("127.0", "91"), ("-181", "37.5"), ("nan", "37.5"), ("1e999", "37.5")] {
                try expect(
                    400, try await send(.GET, "/v1/posts/geolocation?longitude=\(longitude)&latitude=\(latitude)", contentType: nil),
                    "coordinates \(longitude), \(latitude)")
            }
            try expect(
                400, try await send(.GET, "/v1/posts/geolocation?longitude=127.0&latitude=37.5&maxDistance=-5", contentType: nil),
                "a negative distance")
            try expect(
                400,
                try await send(
                    .POST, "/v1/reports", body: bytes(#"{"target_type":"spaceship","target_id":"6740369b3a36e82f532ec7ff","reason":"x"}"#)),
                "an unknown enum value")
            try expect(400, try await send(.POST, "/v1/users/join", body: join(#","email":"y@glint.app""#)), "a duplicate JSON key")
            try expect(
                400, try await send(.POST, "/v1/users/join", body: bytes(#"{"email":"# + String(repeating: "[", count: 100_000))),
                "deeply nested JSON")
            try expect(
                400,
                try await send(
                    .POST, "/v1/users/join", body: join(#","deep":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40))),
                "nesting deeper than any shape")

            // Nothing of the refused requests was stored.
            for email in ["x@glint.app", "y@glint.app", "u@glint.app", "a@glint.app"] {
                let login = try await suite.call(.POST, "/v1/users/login", json: #"{"email":"\#(email)","password":"pass1234!"}"#)
                XCTAssertEqual(login.status, 401, "\(email) was never made")
            }
            let posts = try await send(.GET, "/v1/posts", contentType: nil)
            XCTAssertEqual((try JSON.object(posts.body)["data"] as? [Any])?.count, 0, "no post was stored")

            // A header block over 80 KB, and a client that never finishes its request head.
            let port = try XCTUnwrap(Int(suite.gatewayURL.split(separator: ":").last ?? ""))
            let huge = try await RawHTTP.exchange(
                port: port,
                "GET /v1/posts HTTP/1.1\r\nHost: x\r\nSeSACKey: \(AuthAndGateway.appKey)\r\nX-Long: \(String(repeating: "a", count: 100_000))\r\n\r\n"
            )
            XCTAssertTrue(huge.isEmpty || huge.hasPrefix("HTTP/1.1 4"), "overlong headers: \(huge.prefix(100))")
            let slow = try await RawHTTP.exchangeUntilClosed(
                port: port, "GET /v1/posts HTTP/1.1\r\nHost: x\r\nSeSACKey: \(AuthAndGateway.appKey)\r\n", answers: 1,
                received: {}, timeout: .seconds(15))
            XCTAssertTrue(slow.ended, "the gateway closes a request head that never completes (idle timeout 2 s)")
            XCTAssertFalse(slow.text.hasPrefix("HTTP/1.1 2"))
        } catch {
            XCTFail("\(error)")
        }
        await suite.stop()
    }
}
