import Contracts
import Foundation
import ServiceKit
import Synchronization
import TestSupport
import XCTest

/// How a ban reaches a process's verifier: the list it keeps, the long poll's waiters.
final class RevocationTests: XCTestCase {
    func testListTakesNewerSnapshotsAndAnswersTheNewlyBanned() {
        let clock = Mutex(Date(timeIntervalSince1970: 1_000))
        let list = RevocationList(now: { clock.withLock { $0 } })
        let forever = RevokedUser(appID: "a", userID: "u1", until: nil)
        let timed = RevokedUser(appID: "a", userID: "u2", until: Date(timeIntervalSince1970: 1_060))
        XCTAssertEqual(list.replace(with: RevocationSnapshot(revision: 1, users: [forever])), [forever])
        XCTAssertEqual(list.replace(with: RevocationSnapshot(revision: 2, users: [forever, timed])), [timed], "only the new one")
        XCTAssertEqual(list.replace(with: RevocationSnapshot(revision: 1, users: [])), [], "an older snapshot changes nothing")
        XCTAssertTrue(list.isBanned(appID: "a", userID: "u1"))
        XCTAssertFalse(list.isBanned(appID: "b", userID: "u1"), "a ban is within its app")
        XCTAssertTrue(list.isBanned(appID: "a", userID: "u2"))
        clock.withLock { $0 = Date(timeIntervalSince1970: 1_061) }
        XCTAssertFalse(list.isBanned(appID: "a", userID: "u2"), "a timed ban runs out")
        list.replace(with: RevocationSnapshot(revision: 3, users: []))
        XCTAssertFalse(list.isBanned(appID: "a", userID: "u1"), "lifted")
    }

    func testVerifierRefusesABannedUsersGenuineToken() async throws {
        let keys = await TestKeys.make()
        let list = RevocationList()
        let verifier = AccessTokenVerifier(jwks: JWKSClient { keys.jwks }, revocations: list)
        let token = try await keys.token(user: "u1", app: "a", session: "s1")
        _ = try await verifier.verify(token)
        list.replace(with: RevocationSnapshot(revision: 1, users: [RevokedUser(appID: "a", userID: "u1", until: nil)]))
        do {
            _ = try await verifier.verify(token)
            XCTFail("a banned user's remembered token still passed")
        } catch {
            XCTAssertEqual(error.code, .banned)
        }
    }

    func testWaitersWakeOnTheChangeNotTheTimeout() async {
        let waiters = ChangeWaiters()
        let generation = waiters.generation
        let started = ContinuousClock.now
        async let waited: Void = waiters.wait(beyond: generation, timeout: .seconds(30))
        // Changes keep coming until the waiter has gone: whichever lands after it registered wakes it.
        let changer = Task {
            while !Task.isCancelled {
                waiters.changed()
                await Task.yield()
            }
        }
        await waited
        changer.cancel()
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
    }

    func testWaitEndsAtItsTimeoutAndAtOnceWhenAlreadyChanged() async {
        let waiters = ChangeWaiters()
        let generation = waiters.generation
        waiters.changed()
        let started = ContinuousClock.now
        await waiters.wait(beyond: generation, timeout: .seconds(30))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10), "a change before the wait ends it at once")
        await waiters.wait(beyond: waiters.generation, timeout: .milliseconds(50))
    }
}

/// A sign-out everywhere refuses tokens issued before it (whole seconds: the second before it passes).
final class TokenCutoffTests: XCTestCase {
    func testTokensIssuedBeforeTheCutoffAreRefused() {
        let list = RevocationList()
        let cutoff = Date(timeIntervalSince1970: 1_000.5)
        list.replace(with: RevocationSnapshot(revision: 1, users: [], cutoffs: [TokenCutoff(appID: "a", userID: "u", before: cutoff)]))
        func user(issued: TimeInterval, app: String = "a") -> AuthenticatedUser {
            AuthenticatedUser(userID: "u", appID: app, sessionID: "s", expiresAt: .distantFuture, issuedAt: Date(timeIntervalSince1970: issued))
        }
        XCTAssertEqual(list.refusal(of: user(issued: 998)), .tokenInvalid)
        XCTAssertNil(list.refusal(of: user(issued: 1_000)), "the second of the sign-out, before it: passes")
        XCTAssertNil(list.refusal(of: user(issued: 1_001)), "a token after signing in again")
        XCTAssertNil(list.refusal(of: user(issued: 998, app: "b")), "another app's user of the same id")
    }
}
