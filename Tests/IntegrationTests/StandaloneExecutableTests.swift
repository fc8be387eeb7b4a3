import Contracts
import Foundation
import ServiceKit
import TestSupport
import XCTest

/// The service executables on their own, as containers run them.
final class StandaloneExecutableTests: XCTestCase {
    func testGatewayRateLimitsAndServicesStopGracefully() async throws {
        let suite = try await AuthAndGateway.start(["GATEWAY_RATE_PER_IP": "0.2", "GATEWAY_BURST_PER_IP": "5"])
        let (auth, gateway) = (suite.auth, suite.gateway)
        defer { Task { await suite.stop() } }

        var statuses: [Int] = []
        var retryAfter: String?
        for _ in 0..<8 {
            let answer = try await suite.call(.GET, "/v1/users/me/profile")
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

        // Every invalid variable in one start, the common ones and the service's own.
        let manyBad = try RunningProcess(
            "market-svc",
            environment: [
                "PATH": "/usr/bin:/bin", "INTERNAL_SECRET": "short", "LOG_LEVEL": "loud", "MARKET_POST_CACHE_MB": "lots", "MARKET_BANNERS": "{",
                "MARKET_KAKAO_BOOK_URL": "ftp://books",
            ])
        let manyStatus = try await manyBad.exitStatus()
        XCTAssertEqual(manyStatus, 78)
        for variable in ["INTERNAL_SECRET", "LOG_LEVEL", "MARKET_POST_CACHE_MB", "MARKET_BANNERS", "MARKET_KAKAO_BOOK_URL"] {
            XCTAssertTrue(manyBad.transcript.contains(variable), "\(variable) named:\n\(manyBad.transcript)")
        }
    }
}
