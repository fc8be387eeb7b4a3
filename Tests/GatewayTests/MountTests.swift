import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ServiceClients
import ServiceKit
import Synchronization
import TestSupport
import XCTest

@testable import Gateway

/// Apps served under a mount (API.md §9): `/quotehub/…` names the app without a key; the
/// service sees the path without the mount; every error is the quotehub envelope.
final class MountTests: XCTestCase {
    typealias Fakes = GatewayTests.FakeServices
    static let quotehub = AppInfo(appID: "app-quotehub", name: "QuoteHub", profile: .quotehub, flags: AppFlags(), mount: "quotehub")

    static func appKeys(onLookup: @escaping @Sendable (String) -> Void = { _ in }) -> AuthClient {
        GatewayTests.appKeys(
            byMount: { mount in
                onLookup(mount)
                return mount == "quotehub" ? quotehub : nil
            },
            byKey: { GatewayTests.apps[$0] })
    }

    static func assertEnvelope(_ response: TestResponse, _ status: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(response.status.code, status, response.body.text, file: file, line: line)
        let body = try JSON.object(response.body, file: file, line: line)
        JSON.assertKeys(body, ["success", "message", "data"], file: file, line: line)
        XCTAssertEqual(body["success"] as? Bool, false, file: file, line: line)
        XCTAssertTrue(body["data"] is NSNull, file: file, line: line)
    }

    func testAMountNamesTheAppAndIsStrippedOnBothPaths() async throws {
        let fakes = DirectPathTests.echoingPath()
        let asked = Mutex<[String]>([])
        try await GatewayTests.makeApp(fakes, appKeys: Self.appKeys { mount in asked.withLock { $0.append(mount) } }).test(.live) { client in
            for _ in 0..<3 {
                let answer = try await client.execute(uri: "/quotehub/auth/check-nickname?nickname=%EC%B1%85", method: .get)
                XCTAssertEqual(answer.status, .ok)
                XCTAssertEqual(
                    answer.body.text, #"{"path":"/auth/check-nickname?nickname=%EC%B1%85"}"#, "the service sees the path without the mount")
            }
            let withKey = try await client.execute(uri: "/quotehub/auth/generate-nickname", method: .get, headers: [.sesacKey: "key-lslp"])
            XCTAssertEqual(withKey.body.text, #"{"path":"/auth/generate-nickname"}"#, "a key sent along changes nothing: the mount names the app")
        }
        let requests = fakes.received.withLock { $0 }
        XCTAssertEqual(requests.count, 4)
        XCTAssertEqual(Set(requests.map(\.0)), [.auth])
        for (_, request) in requests {
            XCTAssertEqual(request.head.headers[InternalHeader.appID], ["app-quotehub"])
            XCTAssertEqual(request.head.headers[InternalHeader.appProfile], ["quotehub"])
            let base = request.head.headers[InternalHeader.publicBase].first ?? ""
            XCTAssertTrue(base.hasPrefix("http://") && base.hasSuffix("/quotehub"), "where clients reach the app, from their Host: \(base)")
        }
        XCTAssertEqual(asked.withLock { $0 }, ["quotehub"], "the mount is looked up once, then cached")
    }

    func testErrorsUnderAMountAreTheEnvelope() async throws {
        let fakes = Fakes(answer: { _, request in
            request.head.uri.hasPrefix("/auth/check")
                ? GatewayTests.canonical(.unauthorized, .tokenInvalid, "access token required")
                : GatewayTests.canonical(.init(statusCode: 445), .notPermitted, "not yours")
        })
        let tight = GatewayConfiguration(ipLimit: .init(perSecond: 0.5, burst: 2))
        try await GatewayTests.makeApp(fakes, configuration: tight, appKeys: Self.appKeys()).test(.router) { client in
            try Self.assertEnvelope(try await client.execute(uri: "/quotehub/auth/check-nickname", method: .get), 401)
            try Self.assertEnvelope(try await client.execute(uri: "/quotehub/auth/generate-nickname", method: .get), 403)
            try Self.assertEnvelope(try await client.execute(uri: "/quotehub/no/such/path", method: .get), 404)
            try Self.assertEnvelope(try await client.execute(uri: "/quotehub", method: .get), 404)
            let limited = try await client.execute(uri: "/quotehub/auth/generate-nickname", method: .get)
            try Self.assertEnvelope(limited, 429)
            XCTAssertNotNil(limited.headers[.retryAfter])
        }
        XCTAssertEqual(fakes.received.withLock { $0.count }, 2, "unknown paths are not forwarded")
        try await GatewayTests.makeApp(Fakes(), appKeys: Self.appKeys()).test(.router) { client in
            let elsewhere = try await client.execute(uri: "/elsewhere/auth/generate-nickname", method: .get)
            XCTAssertEqual(elsewhere.status.code, 444, "no app is mounted there")
            let keyed = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
            XCTAssertEqual(keyed.status, .ok, "keyed routes are untouched")
        }
    }

    func testAPaginatedRoutesErrorCarriesAnEmptyPage() throws {
        let rendered = DialectRenderer.rendered(
            for: CanonicalError(code: .badRequest, message: "page must be a number"), app: Self.quotehub, paginated: true)
        XCTAssertEqual(rendered.status.code, 400)
        let body = try JSON.object(rendered.body)
        JSON.assertKeys(body, ["success", "message", "data", "pagination"])
        XCTAssertEqual((body["data"] as? [Any])?.count, 0)
        XCTAssertEqual(body["message"] as? String, "page must be a number")
        JSON.assertKeys(try XCTUnwrap(body["pagination"] as? [String: Any]), ["currentPage", "totalPages", "pageSize", "totalItems"])
        for code in ErrorCode.allCases {
            XCTAssertTrue([400, 401, 403, 404, 413, 429, 500, 502, 503].contains(code.quotehubStatus), "\(code)")
        }
    }

    /// Behind TLS the configured public URL says where clients are; a forged base never crosses.
    func testThePublicBaseComesFromTheConfiguredURL() async throws {
        let fakes = Fakes()
        var configuration = GatewayConfiguration()
        configuration.publicURL = "https://api.example.com"
        try await GatewayTests.makeApp(fakes, configuration: configuration, appKeys: Self.appKeys()).test(.router) { client in
            _ = try await client.execute(
                uri: "/quotehub/auth/generate-nickname", method: .get, headers: [.init(InternalHeader.publicBase)!: "https://evil.example"])
            _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
        }
        let requests = fakes.received.withLock { $0 }
        XCTAssertEqual(requests[0].1.head.headers[InternalHeader.publicBase], ["https://api.example.com/quotehub"])
        XCTAssertEqual(requests[1].1.head.headers[InternalHeader.publicBase], [], "keyed apps have no mount")
    }
}
