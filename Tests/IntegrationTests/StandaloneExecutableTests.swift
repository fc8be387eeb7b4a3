import Contracts
import Foundation
import ServiceKit
import TestSupport
import XCTest

/// The service executables on their own, as containers run them.
final class StandaloneExecutableTests: XCTestCase {
    func testGatewayRateLimitsAndServicesStopGracefully() async throws {
        let dataDirectory = try TestEnvironment.temporaryDirectory()
        let authPort = try FreePort.pick(), gatewayPort = try FreePort.pick()
        var base = ProcessInfo.processInfo.environment
        base["INTERNAL_SECRET"] = TestEnvironment.internalSecret
        base["DATA_DIR"] = dataDirectory
        base["AUTH_SVC_URL"] = "http://127.0.0.1:\(authPort)"
        let auth = try RunningProcess("auth-svc", environment: base.merging(["PORT": "\(authPort)", "AUTH_DEV_APP_KEY": "standalone-key"]) { $1 })
        let gateway = try RunningProcess("gateway", environment: base.merging([
            "PORT": "\(gatewayPort)", "GATEWAY_RATE_PER_IP": "0.2", "GATEWAY_BURST_PER_IP": "5",
        ]) { $1 })
        defer { Task { await auth.stop(); await gateway.stop() } }
        _ = try await auth.line(containing: "listening on")
        _ = try await gateway.line(containing: "listening on")

        var statuses: [Int] = []
        var retryAfter: String?
        for _ in 0..<8 {
            let answer = try await HTTPProbe.call(.GET, "http://127.0.0.1:\(gatewayPort)/v1/users/me/profile", headers: [("SeSACKey", "standalone-key")])
            statuses.append(answer.status)
            if answer.status == 429 {
                retryAfter = answer.headers["Retry-After"].first
                XCTAssertEqual(try JSON.object(answer.body) as? [String: String], ["message": "too many requests"])
            }
        }
        XCTAssertEqual(statuses.filter { $0 == 429 }.count, 3, "burst of 5, then limited: \(statuses)")
        XCTAssertFalse(statuses.prefix(5).contains(429))
        XCTAssertEqual(retryAfter, "5")

        for process in [gateway, auth] {
            process.signal(SIGTERM)
            let status = try await process.exitStatus()
            XCTAssertEqual(status, 0, "\(process.name) stops cleanly on SIGTERM:\n\(process.transcript)")
        }
    }

    func testBadConfigurationStopsWithTheVariableName() async throws {
        let missingSecret = try RunningProcess("market-svc", environment: ["PATH": "/usr/bin:/bin"])
        let missingStatus = try await missingSecret.exitStatus()
        XCTAssertEqual(missingStatus, 78)
        XCTAssertTrue(missingSecret.transcript.contains("INTERNAL_SECRET"), missingSecret.transcript)

        let badRate = try RunningProcess("gateway", environment: ["INTERNAL_SECRET": TestEnvironment.internalSecret, "GATEWAY_RATE_PER_IP": "fast"])
        let badStatus = try await badRate.exitStatus()
        XCTAssertEqual(badStatus, 78)
        XCTAssertTrue(badRate.transcript.contains("GATEWAY_RATE_PER_IP"), badRate.transcript)
    }
}
