import Contracts
import Foundation
import NIOCore
import ServiceKit
import Simulators
import TestSupport
import XCTest

/// Schemathesis (PyPI, installed by `scripts/test`) runs every operation of a profile's API
/// document against the running suite through the gateway, signed in where a route needs it,
/// with several generated examples each; any 5xx or answer that departs from the document fails.
final class APIFuzzTests: XCTestCase {
    /// The fuzzer is one client sending as fast as it can: the per-IP limit would answer most of it.
    static let unlimited = ["GATEWAY_RATE_PER_IP": "100000", "GATEWAY_BURST_PER_IP": "100000"]
    static let lslpKey = "fuzz-lslp-app-key", slpKey = "fuzz-slp-app-key"

    func testTheQuotehubDocumentAgainstTheSuite() async throws {
        let quotehub = try await QuoteHubSuite.start(Self.unlimited)
        do {
            let reader = try await quotehub.replay.signIn("fuzz.reader")
            // Revoking the account would leave every later signed-in operation a 401; its contract tests cover it.
            try await Self.fuzz(
                quotehub.suite, "quotehub", under: "/quotehub", headers: ["Authorization: Bearer " + reader.token], excluding: ["/auth/revoke"])
        } catch {
            XCTFail("\(error)")
        }
        await quotehub.stop()
    }

    /// The key apps' documents against all eight processes (PortOne simulated): an app of each
    /// profile, each signed in as a user of its own.
    func testTheLslpAndSlpDocumentsAgainstTheSuite() async throws {
        let pg = try await PortOneSimulator.start()
        let suite = try await AuthAndGateway.start(
            Self.unlimited.merging([
                "PORTONE_API_URL": pg.url, "PORTONE_IMP_KEY": PortOneSimulator.key, "PORTONE_IMP_SECRET": PortOneSimulator.secret,
                "GEO_BOUNDARIES_FILE": "",
            ]) { $1 }, with: [.chat, .market, .geo, .paymentVerify, .push]
        ) { dataDirectory in
            for (profile, key) in [("lslp", Self.lslpKey), ("slp", Self.slpKey)] {
                let create = try RunningProcess(
                    "auth-svc", arguments: ["apps", "create", "--name", "Fuzz " + profile, "--profile", profile, "--key", key],
                    environment: ["DATA_DIR": dataDirectory, "PATH": "/usr/bin:/bin"])
                let status = try await create.exitStatus()
                XCTAssertEqual(status, 0, create.transcript)
            }
        }
        do {
            let lslp = try await suite.call(
                .POST, "/v1/users/join", key: Self.lslpKey, json: #"{"email":"fuzz@lslp.app","password":"pass1234!","nick":"fuzz"}"#)
            XCTAssertEqual(lslp.status, 200, lslp.body.text)
            let lslpToken = try JSON.string(try JSON.object(lslp.body), "accessToken")
            // Withdrawing or logging out would leave every later signed-in operation a 401; their contract tests cover them.
            try await Self.fuzz(
                suite, "lslp", headers: ["SeSACKey: " + Self.lslpKey, "Authorization: " + lslpToken],
                excluding: ["/v1/users/withdraw", "/v1/users/logout"])

            let slp = try await suite.call(
                .POST, "/v1/users/join", key: Self.slpKey, json: #"{"email":"fuzz@slp.app","password":"pass1234!","nickname":"fuzz"}"#)
            XCTAssertEqual(slp.status, 200, slp.body.text)
            let slpToken = try XCTUnwrap((try JSON.object(slp.body)["token"] as? [String: Any])?["accessToken"] as? String)
            try await Self.fuzz(suite, "slp", headers: ["SeSACKey: " + Self.slpKey, "Authorization: " + slpToken], excluding: [])
        } catch {
            XCTFail("\(error)")
        }
        await suite.stop()
        await pg.stop()
    }

    /// The operators' document (`/openapi/admin.json`) with a signed-in owner. Signing out would
    /// leave every later operation a 401; `SessionSecurityTests` cover the session's routes.
    func testTheAdminDocumentAgainstTheSuite() async throws {
        let suite = try await AuthAndGateway.start(Self.unlimited, with: [.market, .chat, .admin, .paymentVerify, .push])
        do {
            let owner = try await ModerationThroughGatewayTests.addOperator(suite.dataDirectory, email: "fuzz@example.com", role: "owner")
            let session = try await ModerationThroughGatewayTests.signIn(suite.gatewayURL, owner)
            try await Self.fuzz(
                suite, "admin", headers: ["Cookie: " + session.cookie, "X-CSRF-Token: " + session.csrf],
                excluding: ["/admin/api/session", "/admin/api/sessions", "/admin/api/session/password"])
        } catch {
            XCTFail("\(error)")
        }
        await suite.stop()
    }

    static func fuzz(_ suite: AuthAndGateway, _ profile: String, under mount: String = "", headers: [String], excluding: [String]) async throws {
        let schemathesis = try XCTUnwrap(
            ProcessInfo.processInfo.environment["GLINT_TEST_SCHEMATHESIS"], "run the tests with scripts/test (it installs schemathesis)")
        let run = try RunningProcess(
            url: URL(fileURLWithPath: schemathesis), name: "schemathesis",
            arguments: [
                "run", suite.gatewayURL + "/openapi/\(profile).json", "--url", suite.gatewayURL + mount,
                "--checks", "not_a_server_error,response_schema_conformance", "--max-examples", "6", "--seed", "20261124",
                "--phases", "examples,coverage,fuzzing,stateful", "--request-timeout", "10", "--no-color",
            ] + headers.flatMap { ["-H", $0] } + excluding.flatMap { ["--exclude-path", $0] }, environment: ProcessInfo.processInfo.environment)
        let status = try await run.exitStatus(within: .seconds(600))
        // The whole report when something failed; its summary otherwise.
        print(status == 0 ? run.transcript.split(separator: "\n").suffix(20).joined(separator: "\n") : run.transcript)
        // A 5xx may be a service that stopped: its own account of why (a crash's backtrace).
        if status != 0 {
            for process in suite.others {
                let transcript = process.transcript
                if let crash = transcript.range(of: "Fatal error") ?? transcript.range(of: "crashed") {
                    print(transcript[crash.lowerBound...].prefix(12_000))
                }
            }
        }
        XCTAssertEqual(status, 0, "schemathesis found problems in the \(profile) document's run (its report is above)")
    }
}
