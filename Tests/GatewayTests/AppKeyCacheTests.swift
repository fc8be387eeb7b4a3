import Contracts
import ServiceClients
import ServiceKit
import XCTest

@testable import Gateway

/// A rotated-out key (issue 36) is kept no longer than its grace: past it, the gateway asks
/// auth-svc again, which no longer knows it; a current key is kept for the configured time.
final class AppKeyCacheTests: XCTestCase {
    static let app = AppInfo(appID: "app-1", name: "App", profile: .lslp, flags: AppFlags())

    func testARotatedOutKeyIsNotKeptPastItsGrace() async throws {
        var client = AuthClient.unimplemented
        client.appByKey = { key in
            switch key {
            case "current": ResolvedAppKey(app: Self.app)
            case "in-grace": ResolvedAppKey(app: Self.app, validUntil: GlintDate.nowMilliseconds() + 3_600_000)
            case "grace-over": ResolvedAppKey(app: Self.app, validUntil: GlintDate.nowMilliseconds() - 1)
            default: nil
            }
        }
        let cache = AppKeyCache(client: client, ttl: .seconds(30))
        for key in ["current", "in-grace", "grace-over"] {
            let resolved = try await cache.resolve(key)
            XCTAssertEqual(resolved, Self.app, key)
        }
        XCTAssertEqual(cache.cached("current"), .some(Self.app))
        XCTAssertEqual(cache.cached("in-grace"), .some(Self.app), "within its grace the old key is kept")
        XCTAssertTrue(cache.cached("grace-over") == nil, "past its grace it is asked again")
        _ = try await cache.resolve("unknown")
        XCTAssertEqual(cache.cached("unknown"), .some(nil), "an unknown key is kept as unknown")

        // An app changed (auth-svc's apps revision moved): everything is asked again.
        cache.forgetAll()
        XCTAssertTrue(cache.cached("current") == nil && cache.cached("unknown") == nil)
    }
}
