import Contracts
import Foundation
import TestSupport
import XCTest

/// §1 through the gateway with real processes: the session life of a released client, and the
/// `slp` error dialect for an app registered with the real `auth-svc apps create` command.
final class AuthFlowTests: XCTestCase {
    func testJoinLoginExpireRefreshReuse() async throws {
        try await joinLoginExpireRefreshReuse([:])
    }

    /// The same with auth-svc's store on PostgreSQL (`AUTH_DATABASE_URL`): the executable migrates
    /// a fresh database and serves from it.
    func testJoinLoginExpireRefreshReuseOnPostgreSQL() async throws {
        let (pool, url) = try await TestPostgres.freshDatabase()
        pool.close()
        try await joinLoginExpireRefreshReuse(["AUTH_DATABASE_URL": url])
    }

    private func joinLoginExpireRefreshReuse(_ extra: [String: String]) async throws {
        // Two seconds: `exp` is whole seconds, so a token of one could be issued with a millisecond
        // left, and the refreshed token must outlive the next call.
        let suite = try await AuthAndGateway.start(
            ["AUTH_ACCESS_TOKEN_TTL_SECONDS": "2", "AUTH_REFRESH_REUSE_GRACE_SECONDS": "0"].merging(extra) { $1 })
        do {
            let join = try await suite.call(.POST, "/v1/users/join", json: #"{"email":"flow@glint.app","password":"pass1234!","nick":"flow"}"#)
            XCTAssertEqual(join.status, 200, join.body.text)
            XCTAssertNotNil(try JSON.object(join.body)["userID"])
            let login = try await suite.call(.POST, "/v1/users/login", json: #"{"email":"flow@glint.app","password":"pass1234!"}"#)
            let auth = try JSONDecoder().decode(AuthAnswer.self, from: login.body)
            let profile = try await suite.call(.GET, "/v1/users/me/profile", token: auth.accessToken)
            XCTAssertEqual(profile.status, 200)

            // The access token outlives its lifetime: 419, the refresh cue.
            let expired = await HTTPProbe.eventually(within: .seconds(5), every: .milliseconds(100)) { () -> HTTPProbe.Answer? in
                guard let answer = try? await suite.call(.GET, "/v1/users/me/profile", token: auth.accessToken), answer.status == 419 else {
                    return nil
                }
                return answer
            }
            XCTAssertEqual(try XCTUnwrap(expired).status, 419)
            XCTAssertNotNil(try JSON.object(try XCTUnwrap(expired).body)["message"] as? String)

            let refreshed = try await suite.call(.GET, "/v1/auth/refresh", token: auth.accessToken, headers: [("RefreshToken", auth.refreshToken)])
            XCTAssertEqual(refreshed.status, 200)
            let pair = try JSONDecoder().decode(TokenPair.self, from: refreshed.body)
            let again = try await suite.call(.GET, "/v1/users/me/profile", token: pair.accessToken)
            XCTAssertEqual(again.status, 200, "works again")

            let reused = try await suite.call(.GET, "/v1/auth/refresh", token: auth.accessToken, headers: [("RefreshToken", auth.refreshToken)])
            XCTAssertEqual(reused.status, 418)
            let familyDead = try await suite.call(.GET, "/v1/auth/refresh", token: pair.accessToken, headers: [("RefreshToken", pair.refreshToken)])
            XCTAssertEqual(familyDead.status, 418, "the whole family is revoked")
            let file = FileManager.default.fileExists(atPath: suite.dataDirectory + "/auth-svc.sqlite")
            XCTAssertEqual(file, extra["AUTH_DATABASE_URL"] == nil, "a SQLite file only without a database URL")
        } catch {
            await suite.stop()
            throw error
        }
        await suite.stop()
    }

    func testSlpDialectAndEmptyAuthBodies() async throws {
        let suite = try await AuthAndGateway.start(["AUTH_ACCESS_TOKEN_TTL_SECONDS": "1"]) { dataDirectory in
            for (name, arguments) in [
                ("Freeworkers", ["--profile", "slp", "--key", "slp-app-key"]),
                ("GLINT", ["--key", "glint-app-key", "--empty-auth-error-bodies", "--refresh-with-access-token-only"]),
            ] {
                let create = try RunningProcess(
                    "auth-svc", arguments: ["apps", "create", "--name", name] + arguments,
                    environment: ["DATA_DIR": dataDirectory, "PATH": "/usr/bin:/bin"])
                let status = try await create.exitStatus()
                XCTAssertEqual(status, 0, create.transcript)
            }
        }
        do {
            let slp = "slp-app-key"
            func errorCode(_ answer: HTTPProbe.Answer) throws -> String? {
                XCTAssertEqual(answer.status, 400, "slp answers every error with 400")
                return try JSON.object(answer.body)["errorCode"] as? String
            }
            // The workspace apps' own shapes (§8): `nickname` in, AuthOut with the tokens nested out.
            let badEmail = try await suite.call(.POST, "/v1/users/join", key: slp, json: #"{"email":"nope","password":"pass1234!","nickname":"x"}"#)
            XCTAssertEqual(try errorCode(badEmail), "E11")
            let joined = try await suite.call(
                .POST, "/v1/users/join", key: slp, json: #"{"email":"fw@glint.app","password":"pass1234!","nickname":"fw"}"#)
            XCTAssertEqual(joined.status, 200, joined.body.text)
            let auth = try JSONDecoder().decode(SlpAuthOut.self, from: joined.body).extra.token
            let duplicate = try await suite.call(
                .POST, "/v1/users/join", key: slp, json: #"{"email":"fw@glint.app","password":"pass1234!","nickname":"fw"}"#)
            XCTAssertEqual(try errorCode(duplicate), "E12")
            let badLogin = try await suite.call(.POST, "/v1/users/login", key: slp, json: #"{"email":"fw@glint.app","password":"wrong123!"}"#)
            XCTAssertEqual(try errorCode(badLogin), "E03")
            let noToken = try await suite.call(.GET, "/v1/users/me", key: slp)
            XCTAssertEqual(try errorCode(noToken), "E05", "the one token code the app recovers from")
            // Tokens live one second here (for the expiry below): a fresh one, whatever the steps above took.
            let fresh = try JSONDecoder().decode(
                SlpAuthOut.self,
                from: try await suite.call(.POST, "/v1/users/login", key: slp, json: #"{"email":"fw@glint.app","password":"pass1234!"}"#).body
            ).extra.token
            let unknown = try await suite.call(.GET, "/v1/users/6740369b3a36e82f532ec721", key: slp, token: fresh.accessToken)
            XCTAssertEqual(try errorCode(unknown), "E03", "§8: no such user is E03 there")
            let noRoute = try await suite.call(.GET, "/v1/nothing", key: slp)
            XCTAssertEqual(try errorCode(noRoute), "E97")
            let expired = await HTTPProbe.eventually(within: .seconds(5), every: .milliseconds(100)) { () -> String? in
                guard let answer = try? await suite.call(.GET, "/v1/users/me", key: slp, token: auth.accessToken),
                    let code = try? JSON.object(answer.body)["errorCode"] as? String, code == "E05"
                else { return nil }
                return code
            }
            XCTAssertEqual(expired, "E05")
            let noRefresh = try await suite.call(.GET, "/v1/auth/refresh", key: slp, token: auth.accessToken)
            XCTAssertEqual(try errorCode(noRefresh), "E06")

            // GLINT: empty bodies on 401/419, and refresh with the access token alone.
            let glint = "glint-app-key"
            let glintJoin = try await suite.call(
                .POST, "/v1/users/join", key: glint, json: #"{"email":"g@glint.app","password":"pass1234!","nick":"g"}"#)
            let glintAuth = try JSONDecoder().decode(AuthAnswer.self, from: glintJoin.body)
            let unauthorized = try await suite.call(.GET, "/v1/users/me/profile", key: glint)
            XCTAssertEqual(unauthorized.status, 401)
            XCTAssertEqual(unauthorized.body.readableBytes, 0)
            let glintExpired = await HTTPProbe.eventually(within: .seconds(5), every: .milliseconds(100)) { () -> HTTPProbe.Answer? in
                guard let answer = try? await suite.call(.GET, "/v1/users/me/profile", key: glint, token: glintAuth.accessToken), answer.status == 419
                else { return nil }
                return answer
            }
            XCTAssertEqual(try XCTUnwrap(glintExpired).body.readableBytes, 0)
            let refreshed = try await suite.call(.GET, "/v1/auth/refresh", key: glint, token: glintAuth.accessToken)
            XCTAssertEqual(refreshed.status, 200, "GLINT never sends the refresh header")
        } catch {
            await suite.stop()
            throw error
        }
        await suite.stop()
    }

    /// §8: a workspace app recovers from E05 only (it refreshes, and signs out when the refresh
    /// answers E06), so every access token that cannot be used is E05 and every refresh that
    /// cannot succeed E06, through the gateway as the app sees them.
    func testSlpTokenCodesTheAppRecoversFrom() async throws {
        // market-svc answers Me's coins; chat-svc serves a workspace route.
        let suite = try await AuthAndGateway.start(with: [.chat, .market]) { dataDirectory in
            let create = try RunningProcess(
                "auth-svc", arguments: ["apps", "create", "--name", "Freeworkers", "--profile", "slp", "--key", "slp-app-key"],
                environment: ["DATA_DIR": dataDirectory, "PATH": "/usr/bin:/bin"])
            let status = try await create.exitStatus()
            XCTAssertEqual(status, 0, create.transcript)
        }
        do {
            let slp = "slp-app-key"
            func expect(_ code: String, _ answer: HTTPProbe.Answer, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
                XCTAssertEqual(answer.status, 400, what, file: file, line: line)
                XCTAssertEqual(try JSON.object(answer.body) as? [String: String], ["errorCode": code], what, file: file, line: line)
            }
            func login() async throws -> SlpSession.Token {
                let answer = try await suite.call(.POST, "/v1/users/login", key: slp, json: #"{"email":"codes@fw.app","password":"pass1234!"}"#)
                XCTAssertEqual(answer.status, 200, answer.body.text)
                return try JSONDecoder().decode(SlpAuthOut.self, from: answer.body).extra.token
            }
            let joined = try await suite.call(
                .POST, "/v1/users/join", key: slp, json: #"{"email":"codes@fw.app","password":"pass1234!","nickname":"codes"}"#)
            XCTAssertEqual(joined.status, 200, joined.body.text)
            let tokens = try await login()
            let me = try await suite.call(.GET, "/v1/users/me", key: slp, token: tokens.accessToken)
            XCTAssertEqual(me.status, 200, me.body.text)

            // A signature that does not verify: one character of it changed (not the last, whose
            // low bits base64url may not carry).
            var parts = tokens.accessToken.split(separator: ".").map(String.init)
            var signature = Array(parts[2])
            signature[5] = signature[5] == "A" ? "B" : "A"
            parts[2] = String(signature)
            let badSignature = parts.joined(separator: ".")
            try expect("E05", try await suite.call(.GET, "/v1/users/me", key: slp, token: badSignature), "bad signature")
            try expect("E05", try await suite.call(.GET, "/v1/users/me", key: slp, token: "garbage"), "garbage")
            try expect("E05", try await suite.call(.GET, "/v1/workspaces", key: slp, token: "garbage"), "garbage, on chat-svc's route")
            try expect("E05", try await suite.call(.GET, "/v1/users/me", key: slp), "no token")

            // A session that ended: its access token is E05, its refresh E06 (the app signs out).
            let other = try await login()
            let loggedOut = try await suite.call(.POST, "/v1/users/logout", key: slp, token: other.accessToken)
            XCTAssertEqual(loggedOut.status, 200, loggedOut.body.text)
            try expect("E05", try await suite.call(.GET, "/v1/users/me", key: slp, token: other.accessToken), "revoked session")
            try expect(
                "E06",
                try await suite.call(.GET, "/v1/auth/refresh", key: slp, token: other.accessToken, headers: [("RefreshToken", other.refreshToken)]),
                "refresh after logout")
            try expect(
                "E06", try await suite.call(.GET, "/v1/auth/refresh", key: slp, token: "garbage", headers: [("RefreshToken", tokens.refreshToken)]),
                "refresh with a garbage access token")
            try expect(
                "E06",
                try await suite.call(.GET, "/v1/auth/refresh", key: slp, token: badSignature, headers: [("RefreshToken", tokens.refreshToken)]),
                "refresh with a forged access token")
            try expect(
                "E06", try await suite.call(.GET, "/v1/auth/refresh", key: slp, token: tokens.accessToken, headers: [("RefreshToken", "unknown")]),
                "unknown refresh token")
            // The live session still refreshes.
            let refreshed = try await suite.call(
                .GET, "/v1/auth/refresh", key: slp, token: tokens.accessToken, headers: [("RefreshToken", tokens.refreshToken)])
            XCTAssertEqual(refreshed.status, 200, refreshed.body.text)
        } catch {
            await suite.stop()
            throw error
        }
        await suite.stop()
    }
}
