import Contracts
import Crypto
import Foundation
import GRDB
import HummingbirdTesting
import SQLiteStorage
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// Refresh tokens that name their session's generation (`RefreshTokenCodec`): rotations rewrite
/// the session row, forged or altered tokens are unknown, and tokens issued before generations
/// (`refresh_token` rows) keep working until they expire.
final class RefreshGenerationTests: XCTestCase {
    private static let grace: Int64 = 10_000
    private static let codec = RefreshTokenCodec(key: SymmetricKey(size: .bits256))

    private static func refresh(
        _ client: some TestClientProtocol, _ harness: AuthHarness, access: String, refresh: String
    ) async throws -> TestResponse {
        try await client.execute(uri: "/v1/auth/refresh", method: .get, headers: harness.headers(token: access, [("RefreshToken", refresh)]))
    }

    func testRotationsRewriteTheSessionRowAndAnEarlierGenerationKillsTheFamily() async throws {
        let harness = try await AuthHarness.make(reuseGrace: 0)
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "gen@glint.app")
            var pairs = [TokenPair(accessToken: auth.accessToken, refreshToken: auth.refreshToken)]
            for _ in 1...4 {
                let response = try await Self.refresh(client, harness, access: pairs.last!.accessToken, refresh: pairs.last!.refreshToken)
                XCTAssertEqual(response.status, .ok, response.body.text)
                pairs.append(try JSONDecoder().decode(TokenPair.self, from: response.body))
            }
            XCTAssertEqual(Set(pairs.map(\.refreshToken)).count, 5, "every rotation answers a new token")
            let sessions = try await harness.values(Int64.self, "SELECT refresh_generation FROM session")
            XCTAssertEqual(sessions, [5], "one session row, at its fifth generation")
            if !harness.onPostgres {
                let rows = try await harness.values(Int64.self, "SELECT COUNT(*) FROM refresh_token")
                XCTAssertEqual(rows, [0], "no row per token")
            }
            let replayed = try await Self.refresh(client, harness, access: pairs[4].accessToken, refresh: pairs[2].refreshToken)
            XCTAssertEqual(replayed.status.code, 418, "a genuine token two generations back is a reuse")
            let current = try await Self.refresh(client, harness, access: pairs[4].accessToken, refresh: pairs[4].refreshToken)
            XCTAssertEqual(current.status.code, 418, "and the family is dead")
        }
    }

    func testAlteredAndForgedTokensAreUnknownAndHarmless() async throws {
        let harness = try await AuthHarness.make(reuseGrace: 0)
        try await harness.app.contractTest { client in
            let auth = try await client.join(harness, email: "forge@glint.app")
            let parts = auth.refreshToken.split(separator: ".").map(String.init)
            XCTAssertEqual(parts.count, 4, auth.refreshToken)
            let sessionID = try XCTUnwrap(AuthHarness.claims(of: auth.accessToken)?.sid)
            XCTAssertEqual(parts[0], sessionID)
            let mac = parts[3]
            let flipped = (mac.first == "A" ? "B" : "A") + mac.dropFirst()
            // The last character carries two unused bits: another spelling of the same bytes.
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let respelled = String(mac.dropLast()) + String(alphabet[try XCTUnwrap(alphabet.firstIndex(of: try XCTUnwrap(mac.last))) ^ 1])
            let variants = [
                [parts[0], "0", parts[2], mac], [parts[0], "2", parts[2], mac], [parts[0], parts[1], "99999999999999", mac],
                [parts[0], parts[1], parts[2], flipped], [parts[0], parts[1], parts[2], respelled], [parts[0], parts[1], parts[2], "!!"],
                [parts[0], parts[1], parts[2]],
                // Well formed and signed, but with a key that is not auth-svc's.
                Self.codec.token(.init(sessionID: sessionID, generation: 1, expiresAt: Int64.max)).split(separator: ".").map(String.init),
            ]
            for variant in variants {
                let response = try await Self.refresh(client, harness, access: auth.accessToken, refresh: variant.joined(separator: "."))
                XCTAssertEqual(response.status.code, 418, variant.joined(separator: "."))
            }
            let genuine = try await Self.refresh(client, harness, access: auth.accessToken, refresh: auth.refreshToken)
            XCTAssertEqual(genuine.status, .ok, "none of them counted as a reuse: \(genuine.body.text)")
        }
    }

    /// A file from before generations: one session with a live legacy token and an exchanged one.
    private func legacyStore(grace: Int64 = grace) throws -> (store: SQLiteAccountStore, database: DatabasePool, live: String, exchanged: String) {
        let path = try TestEnvironment.temporaryDirectory() + "/auth.sqlite"
        let queue = try DatabaseQueue(path: path)
        try AuthMigrations.migrator.migrate(queue, upTo: "v5-apple-code-sign-in")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO app (id, name, api_key, profile, created_at) VALUES ('a1', 'Old', 'old-app-key', 'lslp', 1)")
            try db.execute(
                sql: """
                    INSERT INTO user (id, app_id, email, email_key, nick, nick_key, created_at, updated_at) VALUES ('u1', 'a1', 'a@b.c', 'a@b.c', 'n', 'n', 1, 1)
                    """)
            try db.execute(sql: "INSERT INTO session (id, app_id, user_id, created_at) VALUES ('s1', 'a1', 'u1', 1)")
            try db.execute(
                sql: "INSERT INTO refresh_token (hash, session_id, created_at, expires_at, rotated_at) VALUES (?, 's1', 1, 5000000, 100)",
                arguments: [RefreshTokenCodec.legacyHash("exchanged-legacy")])
            try db.execute(
                sql: "INSERT INTO refresh_token (hash, session_id, created_at, expires_at) VALUES (?, 's1', 100, 9000000)",
                arguments: [RefreshTokenCodec.legacyHash("live-legacy")])
        }
        try queue.close()
        let database = try DatabaseFactory.openPool(at: path, migrator: AuthMigrations.migrator)
        let store = try SQLiteAccountStore(
            database: database, lookups: try SQLiteLookups(beside: database),
            rules: RefreshRules(codec: Self.codec, lifetimeMS: 1_000_000, reuseGraceMS: grace))
        return (store, database, "live-legacy", "exchanged-legacy")
    }

    func testTheMigrationCarriesTheLiveLegacyTokensExpiry() async throws {
        let legacy = try legacyStore()
        try await legacy.database.read { db in
            let row = try XCTUnwrap(Row.fetchOne(db, sql: "SELECT refresh_generation, refresh_expires_at, refresh_rotated_at FROM session"))
            XCTAssertEqual(row[0] as Int64, 0)
            XCTAssertEqual(row[1] as Int64, 9_000_000)
            XCTAssertNil(row[2] as Int64?)
        }
    }

    func testALegacyTokenRotatesIntoGenerationsAndStaysAFamilyMember() async throws {
        let (store, database, live, exchanged) = try legacyStore()
        let now: Int64 = 1_000_000
        let renewing = try await store.session(refreshToken: live, appID: "a1", at: now)?.sessionID
        XCTAssertEqual(renewing, "s1", "quotehub's renew reads it")
        let unrotated = try await store.checkWithoutRotating(refreshToken: live, sessionID: "s1", userID: "u1", at: now)
        XCTAssertEqual(unrotated, .rotated(refreshToken: live))
        let otherUser = try await store.rotate(refreshToken: live, sessionID: "s1", userID: "u2", appID: "a1", at: now)
        XCTAssertEqual(otherUser, .rejected("unknown refresh token"))
        guard case .rotated(let first) = try await store.rotate(refreshToken: live, sessionID: "s1", userID: "u1", appID: "a1", at: now) else {
            return XCTFail("the live legacy token rotates")
        }
        XCTAssertEqual(Self.codec.read(first), .current(.init(sessionID: "s1", generation: 1, expiresAt: now + 1_000_000)))
        let again = try await store.rotate(refreshToken: live, sessionID: "s1", userID: "u1", appID: "a1", at: now + 5)
        XCTAssertEqual(
            again, .rotated(refreshToken: first),
            "within the grace window the same device gets the family's current token")
        let replaced = try await store.checkWithoutRotating(refreshToken: live, sessionID: "s1", userID: "u1", at: now)
        XCTAssertEqual(replaced, .rejected("refresh token replaced"))
        let retired = try await store.session(refreshToken: live, appID: "a1", at: now)
        XCTAssertNil(retired)
        let renewingFirst = try await store.session(refreshToken: first, appID: "a1", at: now)?.userID
        XCTAssertEqual(renewingFirst, "u1")
        guard case .rotated(let second) = try await store.rotate(refreshToken: first, sessionID: "s1", userID: "u1", appID: "a1", at: now + 10) else {
            return XCTFail("generations rotate")
        }
        let firstAgain = try await store.rotate(refreshToken: first, sessionID: "s1", userID: "u1", appID: "a1", at: now + 20)
        XCTAssertEqual(firstAgain, .rotated(refreshToken: second))
        let longExchanged = try await store.rotate(refreshToken: exchanged, sessionID: "s1", userID: "u1", appID: "a1", at: now + 30)
        XCTAssertEqual(
            longExchanged,
            .rejected("refresh token reused; please log in again"), "a legacy token exchanged long ago")
        let afterReuse = try await store.rotate(refreshToken: second, sessionID: "s1", userID: "u1", appID: "a1", at: now + 40)
        XCTAssertEqual(afterReuse, .rejected("session ended"))
        let reason = try await database.read { db in try String.fetchOne(db, sql: "SELECT revoke_reason FROM session WHERE id = 's1'") }
        XCTAssertEqual(reason, "refresh token reused")
    }

    func testRefreshingWithTheAccessTokenAloneRetiresLegacyTokens() async throws {
        let (store, _, live, _) = try legacyStore(grace: 0)
        guard case .rotated(let next) = try await store.rotateWithoutToken(sessionID: "s1", userID: "u1", at: 1_000_000) else {
            return XCTFail("a live session rotates")
        }
        XCTAssertEqual(Self.codec.read(next), .current(.init(sessionID: "s1", generation: 1, expiresAt: 2_000_000)))
        let legacyAfter = try await store.rotate(refreshToken: live, sessionID: "s1", userID: "u1", appID: "a1", at: 1_000_001)
        XCTAssertEqual(legacyAfter, .rejected("refresh token reused; please log in again"))
        let afterReuse = try await store.rotateWithoutToken(sessionID: "s1", userID: "u1", at: 1_000_002)
        XCTAssertEqual(afterReuse, .rejected("session ended"))
    }

    /// A zero grace admits no reuse, however soon: the same millisecond as the exchange included
    /// (a fast second refresh once fell within a grace of 0), on the rules and through the store.
    func testAZeroGraceAdmitsNoReuseEvenWithinTheSameMillisecond() async throws {
        let rules = RefreshRules(codec: Self.codec, lifetimeMS: 1_000_000, reuseGraceMS: 0)
        let family = RefreshRules.Family(userID: "u1", appID: "a1", revokedAt: nil, generation: 2, expiresAt: 2_000_000, rotatedAt: 1_000_000)
        let previous = RefreshTokenCodec.Claims(sessionID: "s1", generation: 1, expiresAt: 2_000_000)
        XCTAssertEqual(rules.rotation(of: previous, sessionID: "s1", userID: "u1", family: family, now: 1_000_000), .revoke)
        let graced = RefreshRules(codec: Self.codec, lifetimeMS: 1_000_000, reuseGraceMS: 10)
        XCTAssertEqual(graced.rotation(of: previous, sessionID: "s1", userID: "u1", family: family, now: 1_000_009), .answerCurrent)
        XCTAssertEqual(graced.rotation(of: previous, sessionID: "s1", userID: "u1", family: family, now: 1_000_010), .revoke)

        let (store, _, live, _) = try legacyStore(grace: 0)
        guard case .rotated(let first) = try await store.rotate(refreshToken: live, sessionID: "s1", userID: "u1", appID: "a1", at: 1_000_000),
            case .rotated = try await store.rotate(refreshToken: first, sessionID: "s1", userID: "u1", appID: "a1", at: 1_000_001)
        else { return XCTFail("the family rotates twice") }
        let reused = try await store.rotate(refreshToken: first, sessionID: "s1", userID: "u1", appID: "a1", at: 1_000_001)
        XCTAssertEqual(reused, .rejected("refresh token reused; please log in again"))
    }

    func testExpiredTokensAreExpiredNotReused() async throws {
        let (store, _, live, _) = try legacyStore(grace: 0)
        let expired = try await store.rotate(refreshToken: live, sessionID: "s1", userID: "u1", appID: "a1", at: 9_000_000)
        XCTAssertEqual(expired, .rejected("refresh token expired"))
        let expiredAlone = try await store.rotateWithoutToken(sessionID: "s1", userID: "u1", at: 9_000_000)
        XCTAssertEqual(expiredAlone, .rejected("refresh token expired"))
        guard case .rotated(let next) = try await store.rotate(refreshToken: live, sessionID: "s1", userID: "u1", appID: "a1", at: 10) else {
            return XCTFail("a live token rotates")
        }
        let expiredGeneration = try await store.rotate(refreshToken: next, sessionID: "s1", userID: "u1", appID: "a1", at: 1_000_010)
        XCTAssertEqual(expiredGeneration, .rejected("refresh token expired"))
        let expiredRenewal = try await store.session(refreshToken: next, appID: "a1", at: 1_000_010)?.sessionID
        XCTAssertEqual(expiredRenewal, nil)
        let rotated = try await store.rotate(refreshToken: next, sessionID: "s1", userID: "u1", appID: "a1", at: 20)
        XCTAssertEqual(
            rotated,
            .rotated(refreshToken: Self.codec.token(.init(sessionID: "s1", generation: 2, expiresAt: 1_000_020))))
    }
}
