import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import ServiceClients
import ServiceKit
import Synchronization
import TestSupport
import XCTest

@testable import Gateway

final class GatewayTests: XCTestCase {
    static let lslp = AppInfo(appID: "app-lslp", name: "SpotChat", profile: .lslp, flags: AppFlags())
    static let glint = AppInfo(
        appID: "app-glint", name: "GLINT", profile: .lslp, flags: AppFlags(refreshWithAccessTokenOnly: true, emptyAuthErrorBodies: true))
    static let slp = AppInfo(appID: "app-slp", name: "Freeworkers", profile: .slp, flags: AppFlags())
    static let apps = ["key-lslp": lslp, "key-glint": glint, "key-slp": slp]

    /// Requests the fake services received, and what they answer.
    final class FakeServices: Sendable {
        let received = Mutex<[(ServiceName, UpstreamRequest)]>([])
        let answer: @Sendable (ServiceName, UpstreamRequest) async throws -> UpstreamResponse
        let health: @Sendable (ServiceName) -> ServiceHealth

        init(
            answer: @escaping @Sendable (ServiceName, UpstreamRequest) async throws -> UpstreamResponse = { service, _ in
                FakeServices.response(.ok, ["content-type": "application/json", "x-served-by": service.rawValue], #"{"ok":true}"#)
            },
            health: @escaping @Sendable (ServiceName) -> ServiceHealth = { _ in ServiceHealth(status: "ok", pid: 1) }
        ) {
            self.answer = answer
            self.health = health
        }

        var upstream: Upstream {
            Upstream(
                forward: { service, request, eventLoop in
                    self.received.withLock { $0.append((service, request)) }
                    return eventLoop.makeFutureWithTask { try await self.answer(service, request) }
                },
                health: { self.health($0) }
            )
        }

        var last: (ServiceName, UpstreamRequest)? { received.withLock { $0.last } }

        static func response(_ status: HTTPResponseStatus, _ headers: HTTPHeaders, _ body: String) -> UpstreamResponse {
            UpstreamResponse(head: HTTPResponseHead(version: .http1_1, status: status, headers: headers), body: .buffered(ByteBuffer(string: body)))
        }
    }

    static func canonical(_ status: HTTPResponseStatus, _ code: ErrorCode, _ message: String) -> UpstreamResponse {
        UpstreamResponse(
            head: HTTPResponseHead(version: .http1_1, status: status, headers: ["content-type": "application/json"]),
            body: .buffered(JSONCoding.encode(CanonicalError(code: code, message: message)))
        )
    }

    /// auth-svc as the gateway asks it: apps by key (`byKey`) and by mount (none unless `byMount`).
    static func appKeys(
        byMount: @escaping @Sendable (String) async throws -> AppInfo? = { _ in nil }, byKey: @escaping @Sendable (String) async throws -> AppInfo?
    ) -> AuthClient {
        var client = AuthClient.unimplemented
        client.appByMount = byMount
        client.appByKey = { key in try await byKey(key).map { ResolvedAppKey(app: $0) } }
        return client
    }

    /// The fake key lookup, except that its first answer is a failure (auth-svc hiccups). The byte
    /// front, which asks first, then hands that request to the router, which asks again: how a
    /// test gets one answer from each path.
    static func appKeysFailingFirst() -> AuthClient {
        let failed = Mutex(false)
        return appKeys { key in
            let first = failed.withLock { failed in
                defer { failed = true }
                return !failed
            }
            if first { throw ServiceError.unavailable(.auth) }
            return apps[key]
        }
    }

    /// `appKeys` replaces the fake auth-svc key lookup (a failing one, say).
    static func makeApp(
        _ fakes: FakeServices, configuration: GatewayConfiguration = .init(), appKeys: AuthClient? = nil
    ) throws -> some ApplicationProtocol {
        let resolve = appKeys ?? Self.appKeys { key in Self.apps[key] }
        return GatewayAssembly.assemble(
            common: TestEnvironment.common(.gateway, dataDirectory: try TestEnvironment.temporaryDirectory()),
            configuration: configuration,
            dependencies: .init(apps: resolve, upstream: fakes.upstream),
            logger: TestEnvironment.logger
        ).application()
    }

    /// A gateway with its real upstream pools and front loops, `service` answering at `url`.
    static func makeLiveApp(
        _ service: ServiceName, at url: String, idleTimeoutSeconds: Int = 75, budget: UpstreamBudget = .init(perService: 4),
        appKeys: AuthClient? = nil
    ) throws -> some ApplicationProtocol {
        var common = TestEnvironment.common(.gateway, dataDirectory: try TestEnvironment.temporaryDirectory())
        common.serviceURLs[service] = url
        let pools = try UpstreamPools(common: common, budget: budget, logger: TestEnvironment.logger)
        return GatewayAssembly.assemble(
            common: common, configuration: GatewayConfiguration(idleTimeoutSeconds: idleTimeoutSeconds),
            dependencies: .init(
                apps: appKeys ?? Self.appKeys { Self.apps[$0] }, upstream: .live(pools: pools, timeout: .seconds(10)),
                frontLoops: try FrontLoops.Settings(common: common, budget: budget, pools: pools)),
            logger: TestEnvironment.logger
        ).application()
    }

    func testMissingOrUnknownKeyIs420() async throws {
        let fakes = FakeServices()
        try await Self.makeApp(fakes).test(.router) { client in
            let missing = try await client.execute(uri: "/v1/users/login", method: .post)
            XCTAssertEqual(missing.status.code, 420)
            JSON.assertKeys(try JSON.object(missing.body), ["message"])
            let unknown = try await client.execute(uri: "/v1/users/login", method: .post, headers: [.sesacKey: "nope"])
            XCTAssertEqual(unknown.status.code, 420)
            let otherSpelling = try await client.execute(uri: "/v1/users/login", method: .post, headers: [.init("SesacKey")!: "key-lslp"])
            XCTAssertEqual(otherSpelling.status, .ok)
        }
        XCTAssertEqual(fakes.received.withLock { $0.count }, 1)
    }

    /// A `SeSACKey` sent empty is an unknown key on every kind of route, and auth-svc is not asked.
    func testAnEmptyKeyIs420Everywhere() async throws {
        let fakes = FakeServices()
        let asked = Mutex(0)
        let appKeys = Self.appKeys { key in
            asked.withLock { $0 += 1 }
            return Self.apps[key]
        }
        try await Self.makeApp(fakes, appKeys: appKeys).test(.router) { client in
            for (method, uri) in [
                (HTTPRequest.Method.post, "/v1/users/login"), (.post, "/v1/users/attendance"), (.get, "/v1/data/posts/a.jpg"),
                (.post, "/v1/posts/files"), (.get, "/socket.io/?EIO=4&transport=polling"),
            ] {
                let answer = try await client.execute(uri: uri, method: method, headers: [.sesacKey: ""])
                XCTAssertEqual(answer.status.code, 420, uri)
                XCTAssertEqual(try JSON.object(answer.body) as? [String: String], ["message": "unknown app key"], uri)
            }
        }
        XCTAssertEqual(fakes.received.withLock { $0.count }, 0, "nothing forwarded")
        XCTAssertEqual(asked.withLock { $0 }, 0, "no lookup of an empty key")
    }

    func testUnknownRouteIs444() async throws {
        try await Self.makeApp(FakeServices()).test(.router) { client in
            for (uri, method) in [("/v1/nothing", HTTPRequest.Method.get), ("/v1/users/join", .delete), ("/", .get)] {
                let response = try await client.execute(uri: uri, method: method, headers: [.sesacKey: "key-lslp"])
                XCTAssertEqual(response.status.code, 444, uri)
                XCTAssertEqual(try JSON.object(response.body) as? [String: String], ["message": "unknown route"])
            }
            let slp = try await client.execute(uri: "/v1/nothing", method: .get, headers: [.sesacKey: "key-slp"])
            XCTAssertEqual(slp.status, .badRequest)
            XCTAssertEqual(try JSON.object(slp.body) as? [String: String], ["errorCode": "E97"])
        }
    }

    func testForwardsToTheOwnerWithInternalHeadersAndWithoutClientOnes() async throws {
        let fakes = FakeServices()
        try await Self.makeApp(fakes).test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/posts/geolocation?longitude=127.0&latitude=37.5", method: .get,
                headers: [
                    .sesacKey: "key-lslp", .init("x-internal-app-id")!: "forged", .init("X-Internal-Secret")!: "forged",
                    .authorization: "token-abc", .init("x-request-id")!: "req-1", .connection: "keep-alive",
                ]
            )
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers[.init("x-served-by")!], "geo-svc")
            XCTAssertEqual(response.body.text, #"{"ok":true}"#)
        }
        let (service, request) = try XCTUnwrap(fakes.last)
        XCTAssertEqual(service, .geo)
        XCTAssertEqual(request.head.uri, "/v1/posts/geolocation?longitude=127.0&latitude=37.5")
        XCTAssertEqual(request.head.method, .GET)
        let headers = request.head.headers
        XCTAssertEqual(headers[InternalHeader.appID], ["app-lslp"])
        XCTAssertEqual(headers[InternalHeader.appProfile], ["lslp"], "services answer in the app's family of shapes")
        XCTAssertEqual(headers[InternalHeader.secret], [TestEnvironment.internalSecret])
        XCTAssertEqual(headers[InternalHeader.requestID], ["req-1"])
        XCTAssertEqual(headers["authorization"], ["token-abc"])
        XCTAssertTrue(headers["sesackey"].isEmpty, "the app key stays at the gateway")
        XCTAssertTrue(headers["connection"].isEmpty)
    }

    func testSocketAndWebhookKeyRules() async throws {
        let fakes = FakeServices()
        try await Self.makeApp(fakes).test(.router) { client in
            let socket = try await client.execute(uri: "/socket.io/?EIO=4&transport=polling", method: .get)
            XCTAssertEqual(socket.status, .ok, "sockets may come without a key")
            let badSocket = try await client.execute(uri: "/socket.io/?EIO=4&transport=polling", method: .get, headers: [.sesacKey: "nope"])
            XCTAssertEqual(badSocket.status.code, 420, "but a wrong key is refused")
            let webhook = try await client.execute(uri: "/v1/payments/webhook", method: .post, headers: [.sesacKey: "whatever"])
            XCTAssertEqual(webhook.status, .ok, "the payment provider sends no app key")
        }
        XCTAssertEqual(fakes.received.withLock { $0.map(\.0) }, [.chat, .paymentVerify])
        XCTAssertTrue(try XCTUnwrap(fakes.last).1.head.headers[InternalHeader.appID].isEmpty)
    }

    func testServiceErrorsAreRewrittenIntoTheAppsDialect() async throws {
        let fakes = FakeServices(answer: { _, request in
            switch request.head.uri.split(separator: "/").last ?? "" {
            case "profile": Self.canonical(.init(statusCode: 419), .tokenExpired, "access token expired")
            case "refresh": Self.canonical(.init(statusCode: 418), .refreshInvalid, "refresh token reused")
            default: Self.canonical(.unauthorized, .tokenInvalid, "invalid access token")
            }
        })
        try await Self.makeApp(fakes).test(.router) { client in
            let lslp = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: [.sesacKey: "key-lslp"])
            XCTAssertEqual(lslp.status.code, 419)
            XCTAssertEqual(try JSON.object(lslp.body) as? [String: String], ["message": "access token expired"])

            let glint = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: [.sesacKey: "key-glint"])
            XCTAssertEqual(glint.status.code, 419)
            XCTAssertEqual(glint.body.readableBytes, 0, "GLINT starts its refresh only on an empty body")
            let glintLogout = try await client.execute(uri: "/v1/users/logout", method: .post, headers: [.sesacKey: "key-glint"])
            XCTAssertEqual(glintLogout.status, .unauthorized)
            XCTAssertEqual(glintLogout.body.readableBytes, 0)
            let glint418 = try await client.execute(uri: "/v1/auth/refresh", method: .get, headers: [.sesacKey: "key-glint"])
            XCTAssertEqual(glint418.status.code, 418)
            XCTAssertEqual(try JSON.object(glint418.body) as? [String: String], ["message": "refresh token reused"], "only 401/403/419 are emptied")

            let slp = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: [.sesacKey: "key-slp"])
            XCTAssertEqual(slp.status, .badRequest)
            XCTAssertEqual(try JSON.object(slp.body) as? [String: String], ["errorCode": "E05"])
            let slp418 = try await client.execute(uri: "/v1/auth/refresh", method: .get, headers: [.sesacKey: "key-slp"])
            XCTAssertEqual(try JSON.object(slp418.body) as? [String: String], ["errorCode": "E06"])
        }
    }

    /// Freeworkers treats any status but 400 as success and decodes the body: every error a
    /// workspace app can meet, from a service or from the gateway itself, is 400 (or 420 with no
    /// app to speak for).
    func testWorkspaceAppsOnlyEverSee200Or400Or420() async throws {
        let fakes = FakeServices(answer: { _, request in
            let last = String(request.head.uri.split(separator: "/").last ?? "")
            if let code = ErrorCode(rawValue: last) { return Self.canonical(.init(statusCode: code.status), code, "boom") }
            if let status = Int(last) { return FakeServices.response(.init(statusCode: status), [:], "<html>not ours</html>") }
            throw ServiceError.unavailable(.chat)
        })
        try await Self.makeApp(fakes, configuration: GatewayConfiguration(maxBodyBytes: 1024)).test(.router) { client in
            var seen: [String: String] = [:]
            func check(_ response: TestResponse, _ label: String) throws {
                XCTAssertEqual(response.status, .badRequest, label)
                let body = try JSON.object(response.body) as? [String: String]
                XCTAssertEqual(body?.keys.sorted(), ["errorCode"], label)
                seen[label] = body?["errorCode"]
            }
            let slp: HTTPFields = [.sesacKey: "key-slp"]
            for code in ErrorCode.allCases {
                try check(try await client.execute(uri: "/v1/workspaces/\(code.rawValue)", method: .get, headers: slp), code.rawValue)
                XCTAssertEqual(seen[code.rawValue], code.slpCode, code.rawValue)
            }
            for status in [401, 404, 405, 500, 502] {
                try check(try await client.execute(uri: "/v1/workspaces/\(status)", method: .get, headers: slp), "bare \(status)")
            }
            XCTAssertEqual(seen["bare 404"], "E13")
            XCTAssertEqual(seen["bare 502"], "E99")
            try check(try await client.execute(uri: "/v1/workspaces/down", method: .get, headers: slp), "service down")
            XCTAssertEqual(seen["service down"], "E99")
            try check(try await client.execute(uri: "/v1/nothing/here", method: .get, headers: slp), "unknown route")
            try check(
                try await client.execute(uri: "/v1/workspaces", method: .post, headers: slp, body: ByteBuffer(repeating: 65, count: 2048)),
                "too large")
            XCTAssertEqual(seen["too large"], "E11")
            let keyless = try await client.execute(uri: "/v1/workspaces", method: .get)
            XCTAssertEqual(keyless.status.code, 420, "no key: no app to speak for")
        }
    }

    func testRateLimitsPerIPAndPerApp() async throws {
        let tightIP = GatewayConfiguration(ipLimit: .init(perSecond: 0.5, burst: 3))
        try await Self.makeApp(FakeServices(), configuration: tightIP).test(.router) { client in
            for _ in 0..<3 {
                let ok = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
                XCTAssertEqual(ok.status, .ok)
            }
            let limited = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
            XCTAssertEqual(limited.status, .tooManyRequests)
            XCTAssertEqual(limited.headers[.retryAfter], "2")
            XCTAssertEqual(try JSON.object(limited.body) as? [String: String], ["message": "too many requests"])
            let slp = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-slp"])
            XCTAssertEqual(try JSON.object(slp.body) as? [String: String], ["errorCode": "E98"])
        }
        let tightApp = GatewayConfiguration(appLimit: .init(perSecond: 1, burst: 2))
        try await Self.makeApp(FakeServices(), configuration: tightApp).test(.router) { client in
            for _ in 0..<2 { _ = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"]) }
            let limited = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-lslp"])
            XCTAssertEqual(limited.status, .tooManyRequests)
            let otherApp = try await client.execute(uri: "/v1/posts", method: .get, headers: [.sesacKey: "key-glint"])
            XCTAssertEqual(otherApp.status, .ok, "each app has its own bucket")
        }
    }

    func testBodyLimit() async throws {
        let fakes = FakeServices()
        try await Self.makeApp(fakes, configuration: GatewayConfiguration(maxBodyBytes: 1024)).test(.router) { client in
            let big = try await client.execute(
                uri: "/v1/posts", method: .post, headers: [.sesacKey: "key-lslp"], body: ByteBuffer(repeating: 65, count: 2048))
            XCTAssertEqual(big.status.code, 413)
            JSON.assertKeys(try JSON.object(big.body), ["message"])
            let small = try await client.execute(
                uri: "/v1/posts", method: .post, headers: [.sesacKey: "key-lslp"], body: ByteBuffer(repeating: 65, count: 1000))
            XCTAssertEqual(small.status, .ok)
        }
        XCTAssertEqual(fakes.received.withLock { $0.count }, 1)
    }

    func testLimitedBodyStopsAStreamWithoutLength() async throws {
        let chunks = AsyncStream<ByteBuffer> { continuation in
            for _ in 0..<10 { continuation.yield(ByteBuffer(repeating: 1, count: 300)) }
            continuation.finish()
        }
        let gate = LimitedBody<AsyncStream<ByteBuffer>>.Gate()
        var seen = 0
        do {
            for try await chunk in LimitedBody(base: chunks, limit: 1000, gate: gate) { seen += chunk.readableBytes }
            XCTFail("no error past the limit")
        } catch {
            XCTAssertTrue(gate.tripped)
            XCTAssertEqual(seen, 900)
        }
    }

    /// Closing the body returns after the read under way, and no read follows it.
    func testAClosedBodyEndsItsReadUnderWayFirstAndRefusesTheNext() async throws {
        let (parts, source) = AsyncStream<ByteBuffer>.makeStream()
        let (entered, enteredSource) = AsyncStream<Void>.makeStream()
        let events = Mutex<[String]>([])
        let base = ObservedStream(parts: parts, entered: enteredSource) { events.withLock { $0.append("read returned") } }
        let gate = LimitedBody<ObservedStream>.Gate()
        let body = LimitedBody(base: base, limit: 1000, gate: gate)
        let reader = Task {
            var iterator = body.makeAsyncIterator()
            let first = try await iterator.next()
            do {
                _ = try await iterator.next()
                XCTFail("a read after closing")
            } catch {
                XCTAssertTrue(error is LimitedBody<ObservedStream>.Closed, "\(error)")
            }
            return first
        }
        var enteredReads = entered.makeAsyncIterator()
        await enteredReads.next()
        let closer = Task {
            await gate.close()
            events.withLock { $0.append("closed") }
        }
        source.yield(ByteBuffer(string: "part"))
        await closer.value
        let first = try await reader.value
        XCTAssertEqual(first.map { String(buffer: $0) }, "part")
        XCTAssertEqual(events.withLock { $0 }, ["read returned", "closed"])
    }

    /// A body that reports when a read starts and when it returns.
    struct ObservedStream: AsyncSequence, Sendable {
        let parts: AsyncStream<ByteBuffer>
        let entered: AsyncStream<Void>.Continuation
        let returned: @Sendable () -> Void

        struct AsyncIterator: AsyncIteratorProtocol {
            var parts: AsyncStream<ByteBuffer>.AsyncIterator
            let entered: AsyncStream<Void>.Continuation
            let returned: @Sendable () -> Void

            mutating func next() async -> ByteBuffer? {
                entered.yield()
                let part = await parts.next()
                returned()
                return part
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(parts: parts.makeAsyncIterator(), entered: entered, returned: returned)
        }
    }

    func testUnreachableServiceIs503() async throws {
        let fakes = FakeServices(answer: { _, _ in throw UpstreamError.timedOut })
        try await Self.makeApp(fakes).test(.router) { client in
            let response = try await client.execute(uri: "/v1/chats", method: .get, headers: [.sesacKey: "key-lslp"])
            XCTAssertEqual(response.status, .serviceUnavailable)
            XCTAssertEqual(try JSON.object(response.body) as? [String: String], ["message": "chat-svc unavailable"])
        }
    }

    func testSuiteHealth() async throws {
        try await Self.makeApp(FakeServices()).test(.router) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            XCTAssertEqual(response.status, .ok)
            let object = try JSON.object(response.body)
            XCTAssertEqual(object["status"] as? String, "ok")
            let services = try XCTUnwrap(object["services"] as? [String: [String: Any]])
            XCTAssertEqual(Set(services.keys), Set(ServiceName.allCases.map(\.rawValue)))
        }
        let pushDown = FakeServices(health: {
            $0 == .push ? ServiceHealth(status: "down", error: "unreachable") : ServiceHealth(status: "ok", pid: 2)
        })
        try await Self.makeApp(pushDown).test(.router) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            XCTAssertEqual(response.status, .serviceUnavailable)
            let object = try JSON.object(response.body)
            XCTAssertEqual(object["status"] as? String, "degraded")
            XCTAssertEqual((object["services"] as? [String: [String: Any]])?["push-svc"]?["status"] as? String, "down")
        }
    }

    func testRateLimiterMemoryIsBounded() {
        let limiter = RateLimiter(maxKeys: 100)
        let start = ContinuousClock.now
        for index in 0..<1000 {
            _ = limiter.take(.ip("\(index)"), limit: .init(perSecond: 10, burst: 10), now: start + .seconds(index))
        }
        XCTAssertLessThanOrEqual(limiter.count, 101)
    }

    func testAttendancePageWithTheBridgeAndTheKey() async throws {
        try await Self.makeApp(FakeServices()).test(.router) { client in
            let page = try await client.execute(uri: "/event-application", method: .get, headers: [.sesacKey: "key-lslp"])
            XCTAssertEqual(page.status, .ok)
            XCTAssertEqual(page.headers[.contentType], "text/html; charset=utf-8")
            let html = page.body.text
            for needle in [
                "click_attendance_button", "complete_attendance", "window.requestAttendance", "/v1/users/attendance", "attendanceCount",
                #"var appKey = "key-lslp";"#,
            ] {
                XCTAssertTrue(html.contains(needle), needle)
            }
            let browser = try await client.execute(uri: "/event-application", method: .get)
            XCTAssertEqual(browser.status, .ok)
            XCTAssertTrue(browser.body.text.contains(#"var appKey = "";"#), "a plain browser gets the key and token fields")
            let unknown = try await client.execute(uri: "/event-application", method: .get, headers: [.sesacKey: "nope"])
            XCTAssertEqual(unknown.status.code, 420)
        }
    }
}
