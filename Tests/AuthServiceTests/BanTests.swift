import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// Operators' bans as auth-svc keeps them (issue 35): asked by admin-svc over the internal
/// endpoints, they refuse the user's tokens, sign-in and refresh at once, and move the revision
/// every process long-polls for.
final class BanTests: XCTestCase {
    func testBanRefusesTokensSignInAndRefreshUntilLifted() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let banned = try await client.join(harness, email: "abuser@example.com")
            let other = try await client.join(harness, email: "reader@example.com", nick: "reader")
            let before = try await Self.poll(client, harness, after: -1)

            let ban = try await client.send(
                .post, "/internal/users/\(banned.userID)/ban", headers: harness.headers(),
                json: BanRequest(reason: "spam", until: nil, operatorID: "op-1"))
            XCTAssertEqual(ban.status, .ok, ban.body.text)
            let state = try JSONCoding.decoder.decode(BanState.self, from: ban.body)
            XCTAssertEqual(state.userID, banned.userID)
            XCTAssertEqual(state.reason, "spam")
            XCTAssertNil(state.until)

            // The poll answers at once with the ban in it and a newer revision.
            let after = try await Self.poll(client, harness, after: before.revision)
            XCTAssertGreaterThan(after.revision, before.revision)
            XCTAssertEqual(after.users, [RevokedUser(appID: harness.appID, userID: banned.userID, until: nil)])

            let me = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: banned.accessToken))
            XCTAssertEqual(me.status.code, 403, me.body.text)
            XCTAssertEqual(try JSONCoding.decoder.decode(CanonicalError.self, from: me.body).code, .banned)
            let reader = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: other.accessToken))
            XCTAssertEqual(reader.status, .ok, "another user of the app is untouched")

            let login = try await client.send(
                .post, "/v1/users/login", headers: harness.headers(), json: LoginRequest(email: "abuser@example.com", password: "pass1234!"))
            XCTAssertEqual(try JSONCoding.decoder.decode(CanonicalError.self, from: login.body).code, .banned, login.body.text)
            let wrongPassword = try await client.send(
                .post, "/v1/users/login", headers: harness.headers(), json: LoginRequest(email: "abuser@example.com", password: "wrong-pass"))
            XCTAssertEqual(
                try JSONCoding.decoder.decode(CanonicalError.self, from: wrongPassword.body).code, .loginFailed,
                "a wrong password says nothing of the ban")
            let refresh = try await client.execute(
                uri: "/v1/auth/refresh", method: .get, headers: harness.headers(token: banned.accessToken, [("RefreshToken", banned.refreshToken)]))
            XCTAssertEqual(try JSONCoding.decoder.decode(CanonicalError.self, from: refresh.body).code, .refreshInvalid, refresh.body.text)

            let unban = try await client.execute(uri: "/internal/users/\(banned.userID)/unban", method: .post, headers: harness.headers())
            XCTAssertEqual(unban.status, .ok)
            let lifted = try await Self.poll(client, harness, after: after.revision)
            XCTAssertEqual(lifted.users, [])
            let again = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: banned.accessToken))
            XCTAssertEqual(again.status, .ok, "the token works again once the ban is lifted")
            let twice = try await client.execute(uri: "/internal/users/\(banned.userID)/unban", method: .post, headers: harness.headers())
            XCTAssertEqual(twice.status, .notFound)
        }
    }

    func testBanIsCheckedAndScopedToTheApp() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let user = try await client.join(harness, email: "someone@example.com")
            let otherApp = try await client.send(
                .post, "/internal/users/\(user.userID)/ban", headers: TestEnvironment.fields(app: "another-app"),
                json: BanRequest(reason: "spam", until: nil, operatorID: "op-1"))
            XCTAssertEqual(otherApp.status, .notFound, "a user of another app cannot be banned through this one")
            let noReason = try await client.send(
                .post, "/internal/users/\(user.userID)/ban", headers: harness.headers(), json: BanRequest(reason: "", until: nil, operatorID: "op-1"))
            XCTAssertEqual(noReason.status, .badRequest)
            let past = try await client.send(
                .post, "/internal/users/\(user.userID)/ban", headers: harness.headers(),
                json: BanRequest(reason: "spam", until: Date().addingTimeInterval(-60), operatorID: "op-1"))
            XCTAssertEqual(past.status, .badRequest)
            let timed = try await client.send(
                .post, "/internal/users/\(user.userID)/ban", headers: harness.headers(),
                json: BanRequest(reason: "cool off", until: Date().addingTimeInterval(3600), operatorID: "op-1"))
            XCTAssertEqual(timed.status, .ok)
            let snapshot = try await Self.poll(client, harness, after: 0)
            XCTAssertEqual(snapshot.users.map(\.userID), [user.userID])
            XCTAssertNotNil(snapshot.users.first?.until)
        }
    }

    /// The rotating refresh leaves the ban to the rotation's own transaction (no separate read):
    /// a banned user's token is refused and stays as it was, on either engine (past the
    /// one-statement path, which both have, too), and rotates once the ban is over or lifted.
    func testARotationRefusesABannedUserAndLeavesTheTokenAsItWas() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let user = try await client.join(harness, email: "rotating@example.com")
            let sessionID = try XCTUnwrap(AuthHarness.claims(of: user.accessToken)?.sid)
            func rotate(_ token: String, at now: Int64 = GlintDate.nowMilliseconds()) async throws -> RefreshOutcome {
                try await harness.stores.accounts.rotate(
                    refreshToken: token, sessionID: sessionID, userID: user.userID, appID: harness.appID, at: now)
            }
            func ban(until: Date?) async throws {
                _ = try await harness.stores.bans.ban(
                    userID: user.userID, appID: harness.appID, BanRequest(reason: "spam", until: until, operatorID: "op-1"), at: Date())
            }

            let until = Date().addingTimeInterval(3600)
            try await ban(until: until)
            let refused = try await rotate(user.refreshToken)
            XCTAssertEqual(refused, .rejected("this account is suspended"))
            XCTAssertEqual(refused, RefreshRules.suspended)
            let unchanged = try await harness.values(Int64.self, "SELECT refresh_generation FROM session")
            XCTAssertEqual(unchanged, [1], "the refused rotation wrote nothing")

            guard case .rotated(let next) = try await rotate(user.refreshToken, at: GlintDate.milliseconds(until) + 1) else {
                return XCTFail("a ban that is over refuses nothing")
            }
            try await ban(until: nil)
            let refusedAgain = try await rotate(next)
            XCTAssertEqual(refusedAgain, RefreshRules.suspended)
            let lifted = try await harness.stores.bans.unban(userID: user.userID, appID: harness.appID)
            XCTAssertTrue(lifted)
            guard case .rotated = try await rotate(next) else { return XCTFail("the same token rotates once the ban is lifted") }
            let generation = try await harness.values(Int64.self, "SELECT refresh_generation FROM session")
            XCTAssertEqual(generation, [3])
        }
    }

    /// A poll with nothing new waits, and answers the ban made meanwhile (`ChangeWaiters` wakes
    /// it; its own tests show the wait ends on the change, not on the window).
    func testPollAnswersTheNextBan() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let user = try await client.join(harness, email: "later@example.com")
            let current = try await Self.poll(client, harness, after: -1)
            async let waited = Self.poll(client, harness, after: current.revision)
            let ban = try await client.send(
                .post, "/internal/users/\(user.userID)/ban", headers: harness.headers(),
                json: BanRequest(reason: "spam", until: nil, operatorID: "op"))
            XCTAssertEqual(ban.status, .ok)
            let answer = try await waited
            XCTAssertEqual(answer.users.map(\.userID), [user.userID])
        }
    }

    private static func poll(_ client: some TestClientProtocol, _ harness: AuthHarness, after: Int64) async throws -> RevocationSnapshot {
        let response = try await client.send(.post, "/internal/revocations/poll", headers: harness.headers(), json: RevocationPoll(after: after))
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try JSONCoding.decoder.decode(RevocationSnapshot.self, from: response.body)
    }
}

/// Operators' other user actions in auth-svc: search, a user's page, sign-out everywhere (older
/// tokens refused through the same revocation snapshot as bans), deletion by the account's path.
final class OperatorUserTests: XCTestCase {
    func testSearchPageSignOutEverywhereAndDelete() async throws {
        let harness = try await AuthHarness.make()
        try await harness.app.contractTest { client in
            let user = try await client.join(harness, email: "Someone@Example.com", nick: "평범한사람")
            _ = try await client.join(harness, email: "other@example.com", nick: "other")
            for (text, expected) in [(user.userID, [user.userID]), ("someone@", [user.userID]), ("평범", [user.userID])] {
                let found = try await client.send(
                    .post, "/internal/operators/users/search", headers: harness.headers(), json: UserSearchQuery(query: text))
                XCTAssertEqual(try JSONCoding.decoder.decode([OperatorUserSummary].self, from: found.body).map(\.id), expected, text)
            }
            let empty = try await client.send(.post, "/internal/operators/users/search", headers: harness.headers(), json: UserSearchQuery(query: ""))
            XCTAssertEqual(empty.status, .badRequest)

            // A token issued before the sign-out (its iat ten seconds back), for the same session.
            let claims = try XCTUnwrap(AuthHarness.claims(of: user.accessToken))
            let signer = try AccessTokenSigner(key: harness.signingKey.privateKey, keyID: harness.signingKey.keyID)
            let older = try signer.sign(
                AccessTokenClaims(
                    userID: user.userID, appID: harness.appID, sessionID: claims.sid, issuedAt: Date().addingTimeInterval(-10),
                    expiresAt: Date().addingTimeInterval(600)))
            let before = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: older))
            XCTAssertEqual(before.status, .ok)
            let signOut = try await client.execute(uri: "/internal/users/\(user.userID)/sign-out", method: .post, headers: harness.headers())
            XCTAssertEqual(try JSONCoding.decoder.decode(SignOutAnswer.self, from: signOut.body).sessions, 1)
            let after = try await client.execute(uri: "/v1/users/me/profile", method: .get, headers: harness.headers(token: older))
            XCTAssertEqual(after.status, .unauthorized, "a token from before the sign-out is refused")
            // An access token of the same session issued after the cutoff (the join's own may fall in
            // the cutoff's second or before it): the refresh is refused because the session is gone.
            let later = try signer.sign(
                AccessTokenClaims(
                    userID: user.userID, appID: harness.appID, sessionID: claims.sid, issuedAt: Date().addingTimeInterval(2),
                    expiresAt: Date().addingTimeInterval(600)))
            let refresh = try await client.execute(
                uri: "/v1/auth/refresh", method: .get, headers: harness.headers(token: later, [("RefreshToken", user.refreshToken)]))
            XCTAssertEqual(refresh.status.code, 418, "the sessions are gone")
            let snapshot = try await client.send(.post, "/internal/revocations/poll", headers: harness.headers(), json: RevocationPoll(after: -1))
            XCTAssertEqual(
                try JSONCoding.decoder.decode(RevocationSnapshot.self, from: snapshot.body).cutoffs.map(\.userID), [user.userID],
                "every process hears of it with the bans")

            let page = try await client.execute(uri: "/internal/operators/users/\(user.userID)", method: .get, headers: harness.headers())
            XCTAssertEqual(page.status, .ok, page.body.text)
            let detail = try JSONCoding.decoder.decode(OperatorUserDetail.self, from: page.body)
            XCTAssertEqual(detail.user.email, "Someone@Example.com", "as the user wrote it")
            XCTAssertEqual(detail.provider, "email")
            XCTAssertEqual(detail.sessions.map(\.revokeReason), ["signed out by an operator"])
            XCTAssertNil(detail.ban)
            let pageKeys = try JSON.object(page.body)
            XCTAssertTrue(Set(["user", "provider", "sessions", "reportsBy", "reportsAgainst"]).isSubset(of: pageKeys.keys))

            let deleted = try await client.execute(uri: "/internal/users/\(user.userID)/delete", method: .post, headers: harness.headers())
            XCTAssertEqual(deleted.status, .ok, deleted.body.text)
            XCTAssertEqual(harness.revokedAccounts.received.withLock { $0.map(\.userID) }.first, user.userID, "its content goes through market-svc")
            let gone = try await client.execute(uri: "/internal/operators/users/\(user.userID)", method: .get, headers: harness.headers())
            XCTAssertEqual(gone.status, .notFound)
            let again = try await client.execute(uri: "/internal/users/\(user.userID)/delete", method: .post, headers: harness.headers())
            XCTAssertEqual(again.status, .notFound)
        }
    }
}
