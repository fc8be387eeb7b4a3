import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// API.md §9 `POST /auth/revoke`: the account goes at once, market-svc is told to remove its
/// content and Apple to revoke its grant (both through the outbox).
final class QuotehubRevokeTests: XCTestCase {
    func testRevokeDeletesTheAccountAndRevokesAtApple() async throws {
        let fixture = try await QuotehubFixture.make()
        try await fixture.harness.app.contractTest { client in
            let reader = try await fixture.signIn(client, subject: "leaving.reader")
            let other = try await fixture.signIn(client, subject: "staying.reader")
            let issued = fixture.apple.issuedRefreshTokens
            XCTAssertEqual(issued.count, 2)
            let block = try await client.execute(
                uri: "/block-report/block", method: .post, headers: fixture.headers(token: other.token),
                body: JSONCoding.encode(BlockTarget(targetUserId: reader.userID)))
            XCTAssertEqual(block.status, .ok)

            let anonymous = try await client.execute(uri: "/auth/revoke", method: .post, headers: fixture.headers())
            XCTAssertEqual(try JSONDecoder().decode(CanonicalError.self, from: anonymous.body).code.quotehubStatus, 401)
            let before = try await fixture.userCount()
            XCTAssertEqual(before, 2)

            let answer = try await client.execute(uri: "/auth/revoke", method: .post, headers: fixture.headers(token: reader.token))
            XCTAssertEqual(answer.status, .ok, answer.body.text)
            let body = try JSON.object(answer.body)
            JSON.assertKeys(body, ["success", "message", "data"])
            XCTAssertEqual(body["success"] as? Bool, true)
            XCTAssertEqual(body["data"] as? [String: Bool], ["revoked": true])
            let after = try await fixture.userCount()
            XCTAssertEqual(after, 1, "the account is gone at once")

            // Told before the answer (its content must be gone for the next request); the outbox
            // may tell it again, which market-svc takes once.
            let told = fixture.harness.revokedAccounts.received.withLock { $0 }
            XCTAssertEqual(told.first, AccountRevokedEvent(appID: fixture.appID, userID: reader.userID), "market-svc told before revoke answered")
            XCTAssertEqual(Set(told.map(\.userID)), [reader.userID])
            XCTAssertEqual(
                fixture.harness.usersChanged.received.withLock { $0.filter { $0 == reader.userID }.count } >= 1, true, "copies of users told")
            let revokedAtApple = await HTTPProbe.eventually(within: .seconds(15)) { () -> [String]? in
                let revoked = fixture.apple.revokedTokens
                return revoked.isEmpty ? nil : revoked
            }
            XCTAssertEqual(revokedAtApple?.count, 1)
            XCTAssertTrue(issued.contains(revokedAtApple?.first ?? ""), "the grant Apple issued at sign-in is the one revoked")

            let again = try await client.execute(uri: "/auth/revoke", method: .post, headers: fixture.headers(token: reader.token))
            XCTAssertEqual(
                try JSONDecoder().decode(CanonicalError.self, from: again.body).code.quotehubStatus, 401, "the token died with the account")
            let blocked = try await client.execute(uri: "/block-report/blocked-users", method: .get, headers: fixture.headers(token: other.token))
            XCTAssertEqual((try JSON.object(blocked.body)["data"] as? [Any])?.count, 0, "blocks of the account went with it")
        }
    }
}
