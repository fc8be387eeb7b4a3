import Contracts
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1
import ServiceKit
import TestSupport
import XCTest

/// QuoteHub (API.md §9) through the gateway to a real auth-svc: the app registered with the
/// `apps` command (mount and Apple key), requests under `/quotehub/…` with no key, Sign in with
/// Apple by code against the Apple simulator, and the envelope on errors.
final class QuoteHubThroughGatewayTests: XCTestCase {
    static let clientID = "com.quotehub.app"

    func testSignInByCodeUnderTheMount() async throws {
        let apple = try await AppleSimulator.start()
        let teamKey = ES256PrivateKey()
        await apple.registerClient(Self.clientID, teamID: "TEAM123456", keyID: "KEY1234567", publicKey: teamKey.publicKey)
        let suite = try await AuthAndGateway.start([
            "AUTH_APPLE_KEYS_URL": apple.keysURL, "AUTH_APPLE_TOKEN_URL": apple.tokenURL,
            "AUTH_APPLE_REVOKE_URL": apple.revokeURL,
        ]) { dataDirectory in
            let transcript = try await Self.createApp(in: dataDirectory, teamKey: teamKey)
            XCTAssertTrue(transcript.contains("mounted at /quotehub/"), transcript)
        }
        do {
            func post(_ path: String, _ headers: [(String, String)] = [], json: String? = nil) async throws -> HTTPProbe.Answer {
                try await HTTPProbe.call(
                    .POST, suite.gatewayURL + path, headers: headers + (json == nil ? [] : [("Content-Type", "application/json")]),
                    body: json.map { ByteBuffer(string: $0) })
            }
            let first = try await post(
                "/quotehub/auth/apple/callback", json: #"{"code":"\#(apple.issueCode(subject: "001.reader", clientID: Self.clientID))"}"#)
            XCTAssertEqual(first.status, 200, first.body.text)
            let data = try XCTUnwrap(try JSON.object(first.body)["data"] as? [String: Any])
            XCTAssertEqual(data["isNewUser"] as? Bool, true)
            let refresh = try JSON.string(data, "refreshToken")
            let again = try await post(
                "/quotehub/auth/apple/callback", json: #"{"code":"\#(apple.issueCode(subject: "001.reader", clientID: Self.clientID))"}"#)
            XCTAssertEqual((try JSON.object(again.body)["data"] as? [String: Any])?["isNewUser"] as? Bool, false)

            let renewed = try await post("/quotehub/auth/renew-token", [("Authorization", "Bearer " + refresh)])
            XCTAssertEqual(renewed.status, 200, renewed.body.text)
            let nickname = try await HTTPProbe.call(.GET, suite.gatewayURL + "/quotehub/auth/generate-nickname")
            XCTAssertEqual(nickname.status, 200)

            for (label, answer, status) in [
                ("a refused code", try await post("/quotehub/auth/apple/callback", json: #"{"code":"nope"}"#), 401),
                ("an unknown path under the mount", try await HTTPProbe.call(.GET, suite.gatewayURL + "/quotehub/nothing/here"), 404),
                ("a bad body", try await post("/quotehub/auth/apple/callback", json: #"{"code": 12}"#), 400),
            ] {
                XCTAssertEqual(answer.status, status, label)
                let body = try JSON.object(answer.body)
                JSON.assertKeys(body, ["success", "message", "data"])
                XCTAssertEqual(body["success"] as? Bool, false, label)
            }
            let keyed = try await suite.call(.GET, "/quotehub/auth/generate-nickname", key: "not-a-key")
            XCTAssertEqual(keyed.status, 200, "under the mount a key is not looked at")
        } catch {
            XCTFail("\(error)")
        }
        await suite.stop()
        await apple.stop()
    }

    /// The app's reading life through the gateway to real auth-svc and market-svc processes
    /// (Apple and Kakao simulated), every answer in the envelope.
    func testTheReadingAppThroughTheGateway() async throws {
        let quotehub = try await QuoteHubSuite.start()
        do {
            try await quotehub.replay.run()
        } catch {
            XCTFail("\(error)")
        }
        await quotehub.stop()
    }

    /// `auth-svc apps create` as an operator runs it: the mount and the team's `.p8` key from a file.
    static func createApp(in dataDirectory: String, teamKey: ES256PrivateKey) async throws -> String {
        let keyFile = dataDirectory + "/AuthKey_KEY1234567.p8"
        try teamKey.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let create = try RunningProcess(
            "auth-svc",
            arguments: [
                "apps", "create", "--name", "QuoteHub", "--profile", "quotehub", "--mount", "quotehub", "--apple-client-id", Self.clientID,
                "--apple-team-id", "TEAM123456", "--apple-key-id", "KEY1234567", "--apple-private-key-file", keyFile,
            ], environment: ["DATA_DIR": dataDirectory, "PATH": "/usr/bin:/bin"])
        let status = try await create.exitStatus()
        XCTAssertEqual(status, 0, create.transcript)
        return create.transcript
    }
}
