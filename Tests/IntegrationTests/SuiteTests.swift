import Contracts
import Foundation
import TestSupport
import XCTest

/// The whole suite as a newcomer runs it: `glint` with eight real processes, driven through the
/// gateway on free ports with a temporary data folder.
final class SuiteTests: XCTestCase {
    static let appKey = "integration-dev-key"

    func testLauncherRunsHealsAndStopsTheSuite() async throws {
        let dataDirectory = try TestEnvironment.temporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["AUTH_DEV_APP_KEY"] = Self.appKey
        environment["LOG_LEVEL"] = "warning"
        environment["AUTH_BCRYPT_COST"] = "4"
        // Nothing but the README's command: geo-svc geocodes with the data it ships with.
        environment["GEO_BOUNDARIES_FILE"] = nil
        let launcher = try RunningProcess(
            "glint", arguments: ["--port-base", "0", "--data-dir", dataDirectory, "--simulate-portone"], environment: environment)
        do {
            try await exercise(launcher, dataDirectory: dataDirectory)
        } catch {
            await launcher.stop()
            throw error
        }
    }

    private func exercise(_ launcher: RunningProcess, dataDirectory: String) async throws {
        let ready = try await launcher.line(containing: "gateway on http://")
        let gateway = String(try XCTUnwrap(ready.range(of: "http://").map { ready[$0.lowerBound...] }))
        let printedKey = try await launcher.line(containing: "SeSACKey: ")
        XCTAssertTrue(printedKey.hasSuffix("SeSACKey: \(Self.appKey)"), "the development key is printed: \(printedKey)")

        // All eight healthy through the gateway.
        let pids = try await Self.healthyPIDs(gateway)
        XCTAssertEqual(Set(pids.keys), Set(ServiceName.allCases.map(\.rawValue)))
        XCTAssertEqual(Set(pids.values).count, ServiceName.allCases.count, "eight processes")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dataDirectory + "/auth-svc.sqlite"))

        // No key → 420 in the default dialect; unknown path → 444.
        let noKey = try await HTTPProbe.call(.GET, gateway + "/v1/users/me/profile")
        XCTAssertEqual(noKey.status, 420)
        XCTAssertNotNil(try JSON.object(noKey.body)["message"] as? String)
        let unknown = try await HTTPProbe.call(.GET, gateway + "/v1/no-such-thing", headers: [("SeSACKey", Self.appKey)])
        XCTAssertEqual(unknown.status, 444)
        XCTAssertEqual(try JSON.object(unknown.body) as? [String: String], ["message": "unknown route"])

        // Services working together: market-svc renders creators through auth-svc's batch lookup,
        // and auth-svc lists the author's posts from market-svc.
        let key = [("SeSACKey", Self.appKey)]
        let join = try await HTTPProbe.call(
            .POST, gateway + "/v1/users/join", headers: key + [("Content-Type", "application/json")],
            body: .init(string: #"{"email":"suite@glint.app","password":"pass1234!","nick":"suite"}"#))
        let auth = try JSONDecoder().decode(AuthAnswer.self, from: join.body)
        let withToken = key + [("Authorization", auth.accessToken), ("Content-Type", "application/json")]
        let created = try await HTTPProbe.call(
            .POST, gateway + "/v1/posts", headers: withToken,
            body: .init(string: ##"{"category":"walk","title":"first walk","content":"#산책"}"##))
        XCTAssertEqual(created.status, 200, created.body.text)
        let postID = try JSON.string(try JSON.object(created.body), "post_id")
        let feed = try JSON.object(try await HTTPProbe.call(.GET, gateway + "/v1/posts", headers: withToken).body)
        let first = try XCTUnwrap((feed["data"] as? [[String: Any]])?.first)
        XCTAssertEqual((first["creator"] as? [String: Any])?["nick"] as? String, "suite")
        XCTAssertEqual(feed["next_cursor"] as? String, "0")

        // `--simulate-portone`: payment-verify-svc asks the launcher's PortOne simulator, where a
        // developer creates payments by hand.
        let simulatorLine = try await launcher.line(containing: "PortOne simulator on http://")
        let simulator = String(
            try XCTUnwrap(simulatorLine.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression).map { simulatorLine[$0] }))
        let payment = try await HTTPProbe.call(
            .POST, simulator + "/simulator/payments", headers: [("Content-Type", "application/json")],
            body: .init(string: #"{"merchant_uid":"ord_6740369b3a36e82f532ec000","amount":1000}"#))
        let impUID = try XCTUnwrap((try JSON.object(payment.body)["response"] as? [String: Any])?["imp_uid"] as? String)
        let validation = try await HTTPProbe.call(
            .POST, gateway + "/v1/payments/validation", headers: withToken, body: .init(string: #"{"imp_uid":"\#(impUID)"}"#))
        XCTAssertEqual(validation.status, 400, "the simulator knows the payment; market-svc knows no such order: \(validation.body.text)")
        XCTAssertEqual(try JSON.object(validation.body)["message"] as? String, "unknown order; the payment was cancelled")
        let profileAnswer = try await HTTPProbe.call(.GET, gateway + "/v1/users/me/profile", headers: withToken)
        let profile = try JSON.object(profileAnswer.body)
        XCTAssertEqual(profile["posts"] as? [String], [postID])
        // HEAD wherever GET is, through the gateway: the GET's status and length, no body.
        let head = try await HTTPProbe.call(.HEAD, gateway + "/v1/users/me/profile", headers: withToken)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers.first(name: "content-length"), "\(profileAnswer.body.readableBytes)")
        XCTAssertEqual(head.body.readableBytes, 0)
        // Not for a GET that changes state: the account is still there.
        let headWithdraw = try await HTTPProbe.call(.HEAD, gateway + "/v1/users/withdraw", headers: withToken)
        XCTAssertEqual(headWithdraw.status, 444)
        let stillThere = try await HTTPProbe.call(.GET, gateway + "/v1/users/me/profile", headers: withToken)
        XCTAssertEqual(stillThere.status, 200)

        // Reverse geocoding on the default run: Seoul City Hall is in 태평로1가 (a legal dong).
        let reverse = try await HTTPProbe.call(.GET, gateway + "/v1/geo/reverse?longitude=126.9780&latitude=37.5665", headers: withToken)
        XCTAssertEqual(reverse.status, 200, reverse.body.text)
        let region = try JSON.object(reverse.body)
        XCTAssertEqual(region["region_type"] as? String, "B")
        XCTAssertEqual(region["code"] as? String, "1114010300")
        XCTAssertEqual(region["address_name"] as? String, "서울특별시 중구 태평로1가")

        // SIGKILL one service: the launcher restarts it and it is healthy again within 5 s.
        let victim = try XCTUnwrap(pids[ServiceName.auth.rawValue])
        let killed = ContinuousClock.now
        kill(victim, SIGKILL)
        let replacement = await HTTPProbe.eventually(within: .seconds(5)) { () -> Int32? in
            guard let pids = try? await Self.healthyPIDs(gateway), let pid = pids[ServiceName.auth.rawValue], pid != victim else { return nil }
            return pid
        }
        let healed = try XCTUnwrap(replacement, "auth-svc not healthy again within 5 s:\n\(launcher.transcript)")
        print("auth-svc restarted as pid \(healed) in \(ContinuousClock.now - killed)")
        let keyStillWorks = try await HTTPProbe.call(.GET, gateway + "/v1/no-such-thing", headers: [("SeSACKey", Self.appKey)])
        XCTAssertEqual(keyStillWorks.status, 444)

        // Ctrl-C: the launcher stops every child and leaves no process behind.
        let children = Array(pids.values.filter { $0 != victim }) + [healed]
        launcher.signal(SIGINT)
        let status = try await launcher.exitStatus(within: .seconds(30))
        XCTAssertEqual(status, 0, launcher.transcript)
        for pid in children {
            XCTAssertEqual(kill(pid, 0), -1, "pid \(pid) still exists")
            XCTAssertEqual(errno, ESRCH)
        }
    }

    /// pids of services that report ok, only when all eight do.
    private static func healthyPIDs(_ gateway: String) async throws -> [String: Int32] {
        let health = try await HTTPProbe.call(.GET, gateway + "/health")
        guard health.status == 200 else { throw HealthError() }
        let services = try XCTUnwrap(try JSON.object(health.body)["services"] as? [String: [String: Any]])
        return services.compactMapValues { ($0["pid"] as? Int).map(Int32.init) }
    }

    struct HealthError: Error {}
}
