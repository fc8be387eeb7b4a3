import Contracts
import Foundation
import NIOCore
import ServiceKit
import TestSupport
import XCTest

/// Schemathesis (PyPI, installed by `scripts/test`) runs every operation of a profile's API
/// document against the running suite through the gateway, signed in where a route needs it,
/// with several generated examples each; any 5xx or answer that departs from the document fails.
final class APIFuzzTests: XCTestCase {
    static func schemathesis() throws -> URL {
        let path = try XCTUnwrap(ProcessInfo.processInfo.environment["GLINT_TEST_SCHEMATHESIS"], "run the tests with scripts/test (it installs schemathesis)")
        return URL(fileURLWithPath: path)
    }

    func testTheQuotehubDocumentAgainstTheSuite() async throws {
        let schemathesis = try Self.schemathesis()
        // The fuzzer is one client sending as fast as it can: the per-IP limit would answer most of it.
        let quotehub = try await QuoteHubSuite.start(["GATEWAY_RATE_PER_IP": "100000", "GATEWAY_BURST_PER_IP": "100000"])
        let suite = quotehub.suite
        do {
            let reader = try await quotehub.replay.signIn("fuzz.reader")
            let run = try RunningProcess(url: schemathesis, name: "schemathesis", arguments: [
                "run", suite.gatewayURL + "/openapi/quotehub.json", "--url", suite.gatewayURL + "/quotehub",
                "-H", "Authorization: Bearer " + reader.token,
                "--checks", "not_a_server_error,response_schema_conformance", "--max-examples", "6", "--seed", "20261124",
                "--phases", "examples,coverage,fuzzing", "--request-timeout", "10", "--no-color",
                // Revoking the account would leave every later signed-in operation a 401; its contract tests cover it.
                "--exclude-path", "/auth/revoke",
            ], environment: ProcessInfo.processInfo.environment)
            let status = try await run.exitStatus(within: .seconds(600))
            print(run.transcript.split(separator: "\n").suffix(40).joined(separator: "\n"))
            XCTAssertEqual(status, 0, "schemathesis found problems (its report is above)")
        } catch {
            XCTFail("\(error)")
        }
        await quotehub.stop()
    }
}
