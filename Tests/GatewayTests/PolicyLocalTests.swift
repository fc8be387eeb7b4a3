import Contracts
import ServiceClients
import ServiceKit
import XCTest

@testable import Gateway

/// A front loop's copies of the key cache (`GatewayPolicy.Local`) answer as the shared cache
/// does: an app changed at auth-svc (the cache told to forget) or a key past its time is not
/// answered from a copy, and request ids from a loop's series are ids of the same form as the
/// process's, none repeated.
final class PolicyLocalTests: XCTestCase {
    static let before = AppInfo(appID: "app-0123456789abcdef01234567", name: "Before, a name of some length", profile: .lslp, flags: AppFlags())
    static let after = AppInfo(appID: "app-0123456789abcdef01234567", name: "After", profile: .quotehub, flags: AppFlags(emptyAuthErrorBodies: true))

    /// auth-svc's answers, changed by the test.
    final class Answers: @unchecked Sendable {
        var app = PolicyLocalTests.before
        var validUntil: Int64?
    }

    private func cache(_ answers: Answers, ttl: Duration = .seconds(30)) -> AppKeyCache {
        var client = AuthClient.unimplemented
        client.appByKey = { key in key == "known" ? ResolvedAppKey(app: answers.app, validUntil: answers.validUntil) : nil }
        client.appByMount = { mount in mount == "quotehub" ? answers.app : nil }
        return AppKeyCache(client: client, ttl: ttl)
    }

    func testACopyIsTheCachesAnswerUntilTheCacheForgets() async throws {
        let answers = Answers()
        let apps = cache(answers)
        let local = GatewayPolicy.Local(.testing(apps: apps))
        let now = ContinuousClock.now
        XCTAssertTrue(local.app(forKey: "known", in: apps, now: now) == nil, "nothing known before auth-svc is asked")
        _ = try await apps.resolve("known")
        _ = try await apps.resolve("unknown")
        XCTAssertEqual(local.app(forKey: "known", in: apps, now: now), .some(Self.before))
        XCTAssertEqual(local.app(forKey: "known", in: apps, now: now), .some(Self.before), "the copy answers again")
        XCTAssertEqual(local.app(forKey: "unknown", in: apps, now: now), .some(nil), "a key auth-svc does not know stays unknown")

        // The app changed at auth-svc: the copy is not answered after the cache forgot.
        answers.app = Self.after
        apps.forgetAll()
        XCTAssertTrue(local.app(forKey: "known", in: apps, now: now) == nil, "asked again, as the shared cache is")
        _ = try await apps.resolve("known")
        XCTAssertEqual(local.app(forKey: "known", in: apps, now: now), .some(Self.after))
    }

    func testACopyIsNotKeptPastTheSharedEntrysTime() async throws {
        let answers = Answers()
        // A rotated-out key in its last minute of grace.
        answers.validUntil = GlintDate.nowMilliseconds() + 60_000
        let apps = cache(answers)
        let local = GatewayPolicy.Local(.testing(apps: apps))
        _ = try await apps.resolve("known")
        let now = ContinuousClock.now
        XCTAssertEqual(local.app(forKey: "known", in: apps, now: now), .some(Self.before))
        XCTAssertTrue(local.app(forKey: "known", in: apps, now: now + .seconds(61)) == nil, "past the grace, asked again")
    }

    func testMountsAreCopiedAndForgottenAlike() async throws {
        let answers = Answers()
        let apps = cache(answers)
        let local = GatewayPolicy.Local(.testing(apps: apps))
        let now = ContinuousClock.now
        _ = try await apps.resolveMount("quotehub")
        XCTAssertEqual(local.app(forMount: "quotehub", in: apps, now: now), .some(Self.before))
        answers.app = Self.after
        apps.forgetAll()
        XCTAssertTrue(local.app(forMount: "quotehub", in: apps, now: now) == nil)
        _ = try await apps.resolveMount("quotehub")
        XCTAssertEqual(local.app(forMount: "quotehub", in: apps, now: now), .some(Self.after))
    }

    /// Two loops' series and the process's: 24 hex digits, the offered id kept when sane, no id
    /// made twice, and each series' ids in order within a second.
    func testRequestIDsFromALoopsSeries() {
        let (first, second) = (GatewayPolicy.Local(.testing()), GatewayPolicy.Local(.testing()))
        let now = ContinuousClock.now
        XCTAssertEqual(first.requestID(offered: "client-id_1", now: now), "client-id_1")
        var made = Set<String>()
        var previous: String?
        for index in 0..<20_000 {
            let id = first.requestID(offered: index % 2 == 0 ? nil : "not a token", now: now)
            XCTAssertTrue(ObjectID.isValid(id), id)
            if let previous, previous.prefix(18) == id.prefix(18), previous.suffix(6) != "ffffff" {
                XCTAssertLessThan(previous, id, "a series counts up")
            }
            previous = id
            made.insert(id)
            made.insert(second.requestID(offered: nil, now: now))
            made.insert(RequestIDMiddleware.requestID(offered: nil))
        }
        XCTAssertEqual(made.count, 60_000, "no id made twice across two series and the process's")
    }
}
