import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import Gateway

/// The gateway's request log (issue 36): every failed request and one in N of the rest, from the
/// routed and the direct path, found by admin-svc by request id, status, app or user; never a
/// token, a body or a query.
final class RequestLogTests: XCTestCase {
    func testTheRingKeepsErrorsAndASampleWithinTheRetention() {
        let log = RequestLog(settings: .init(errors: 2, sampled: 1, sampleEvery: 3, retention: .seconds(60)))
        let app = AppInfo(appID: "app-1", name: "App", profile: .lslp, flags: AppFlags())
        let token = "Bearer x." + Base64URL.encode(Array(#"{"sub":"6740369b3a36e82f532ec7bb"}"#.utf8)) + ".y"
        func end(_ id: String, _ status: Int, authorization: String? = nil) {
            log.record(
                status: status,
                RequestLog.Ended(method: "GET", route: "/v1/posts", start: .now, app: app, requestID: id, authorization: authorization))
        }
        for index in 0..<6 { end("ok-\(index)", 200) }
        end("e1", 401, authorization: token)
        end("e2", 500)
        end("e3", 404, authorization: "Bearer not-a-token")
        let all = log.search(RequestLogQuery(limit: 10))
        XCTAssertEqual(all.filter { !$0.sampled }.map(\.requestId), ["e3", "e2"], "the newest errors, as many as kept")
        XCTAssertEqual(all.filter(\.sampled).map(\.requestId), ["ok-3"], "one in three successes, the newest kept")
        XCTAssertEqual(log.search(RequestLogQuery(status: 500, limit: 10)).map(\.requestId), ["e2"])
        XCTAssertEqual(log.search(RequestLogQuery(requestId: "e3", limit: 10)).first?.userId, nil, "no subject from a malformed token")
        XCTAssertEqual(RequestLog.subject(of: token), "6740369b3a36e82f532ec7bb")
        XCTAssertEqual(log.search(RequestLogQuery(appId: "other", limit: 10)), [])
    }

    func testBothPathsLogAndAdminSvcReadsIt() async throws {
        let fakes = PolicyPathMatrixTests.fakes()
        try await GatewayTests.makeApp(fakes, configuration: GatewayConfiguration()).test(.live) { client in
            let refused = try await client.execute(uri: "/v1/posts?secret=1", method: .get, headers: [.sesacKey: "nope"])
            XCTAssertEqual(refused.status.code, 420)
            let refusedID = try XCTUnwrap(refused.headers[HTTPField.Name(InternalHeader.requestID)!])
            // The key resolved once through the router; then the direct path answers (an error from the service).
            for _ in 0..<2 { _ = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: [.sesacKey: "key-lslp"]) }
            let direct = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: [.sesacKey: "key-lslp"])
            XCTAssertEqual(direct.status.code, 419)
            let directID = try XCTUnwrap(direct.headers[HTTPField.Name(InternalHeader.requestID)!])

            func search(
                _ query: String, headers: HTTPFields = TestEnvironment.fields(app: nil, extra: [("content-type", "application/json")])
            )
                async throws -> TestResponse
            {
                try await client.execute(uri: "/internal/request-log", method: .post, headers: headers, body: ByteBuffer(string: query))
            }
            let unauthorized = try await search(#"{"limit":10}"#, headers: [.contentType: "application/json"])
            XCTAssertEqual(unauthorized.status, .forbidden, "the internal secret guards it")
            let found = try JSONCoding.decoder.decode(
                [RequestLogEntry].self, from: try await search(#"{"requestId":"\#(refusedID)","limit":10}"#).body)
            XCTAssertEqual(found.map(\.status), [420])
            XCTAssertEqual(found.first?.route, "/v1/…", "an unmatched path by its first segment, never its query")
            XCTAssertNil(found.first?.appId)
            let forwarded = try JSONCoding.decoder.decode(
                [RequestLogEntry].self, from: try await search(#"{"requestId":"\#(directID)","limit":10}"#).body)
            XCTAssertEqual(forwarded.first?.route, "/v1/users/me/profile")
            XCTAssertEqual(forwarded.first?.appName, "SpotChat")
            let answer1 = try await search(#"{"limit":0}"#)
            XCTAssertEqual(answer1.status, .badRequest)
        }
    }
}
