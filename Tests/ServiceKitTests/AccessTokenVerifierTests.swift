import Contracts
import Hummingbird
import JWTKit
import ServiceKit
import Synchronization
import TestSupport
import XCTest

final class AccessTokenVerifierTests: XCTestCase {
    func testValidTokenGivesTheCaller() async throws {
        let keys = await TestKeys.make()
        let verifier = AccessTokenVerifier(jwks: JWKSClient { keys.jwks })
        let user = try await verifier.verify(try await keys.token(user: "u1", app: "a1", session: "s1"))
        XCTAssertEqual(user.userID, "u1")
        XCTAssertEqual(user.appID, "a1")
        XCTAssertEqual(user.sessionID, "s1")
    }

    /// A verified token is remembered (no second signature check), but its `exp` still decides:
    /// once the clock passes it the same token is expired, except for the refresh endpoint.
    func testARememberedTokenStillExpires() async throws {
        let keys = await TestKeys.make()
        let clock = Mutex(Date())
        let verifier = AccessTokenVerifier(jwks: JWKSClient { keys.jwks }, now: { clock.withLock { $0 } })
        let token = try await keys.token(user: "u1", app: "a1", session: "s1", expiresIn: 600)
        let first = try await verifier.verify(token)
        let again = try await verifier.verify(token)
        XCTAssertEqual(first, again)
        clock.withLock { $0 = $0.addingTimeInterval(601) }
        await assertCode(.tokenExpired, verifier, token)
        let refreshing = try await verifier.verify(token, allowExpired: true)
        XCTAssertEqual(refreshing.sessionID, "s1")
    }

    /// auth-svc's own tokens are known without their signature (no key set here at all), expire
    /// as any other, and stay known for the refresh a while after.
    func testARememberedSignedTokenNeedsNoKeysAndStillExpires() async throws {
        let keys = await TestKeys.make()
        let clock = Mutex(Date())
        let verifier = AccessTokenVerifier(jwks: .failing, now: { clock.withLock { $0 } })
        let token = try await keys.token(user: "u1", app: "a1", session: "s1", expiresIn: 600)
        let user = AuthenticatedUser(userID: "u1", appID: "a1", sessionID: "s1", expiresAt: clock.withLock { $0 }.addingTimeInterval(600))
        verifier.remember(token, for: user, grace: .seconds(600))
        let known = try await verifier.verify(token)
        XCTAssertEqual(known, user)
        clock.withLock { $0 = $0.addingTimeInterval(601) }
        await assertCode(.tokenExpired, verifier, token)
        let refreshing = try await verifier.verify(token, allowExpired: true)
        XCTAssertEqual(refreshing, user)
        await assertCode(.tokenInvalid, verifier, try await keys.token(user: "u2"))
    }

    func testNoTokenVerifiesWhileTheKeyServerIsDown() async throws {
        let keys = await TestKeys.make()
        await assertCode(.tokenInvalid, AccessTokenVerifier(jwks: .failing), try await keys.token())
    }

    func testExpiredGenuineTokenIsTokenExpired() async throws {
        let keys = await TestKeys.make()
        let verifier = AccessTokenVerifier(jwks: JWKSClient { keys.jwks })
        let token = try await keys.token(expiresIn: -5)
        await assertCode(.tokenExpired, verifier, token)
    }

    func testForgedSignatureWithAKnownKeyIDIsInvalid() async throws {
        let genuine = await TestKeys.make(keyID: "k1")
        let forger = await TestKeys.make(keyID: "k1")
        let verifier = AccessTokenVerifier(jwks: JWKSClient { genuine.jwks })
        await assertCode(.tokenInvalid, verifier, try await forger.token())
        // An expired forgery is still a forgery, not "expired".
        await assertCode(.tokenInvalid, verifier, try await forger.token(expiresIn: -5))
    }

    func testMalformedTokens() async {
        let keys = await TestKeys.make()
        let verifier = AccessTokenVerifier(jwks: JWKSClient { keys.jwks })
        for token in ["", "abc", "a.b.c", String(repeating: "x", count: 5000)] {
            await assertCode(.tokenInvalid, verifier, token)
        }
    }

    func testUnknownKeyIDRefetchesOnceThenPicksUpARotatedKey() async throws {
        let old = await TestKeys.make(keyID: "old")
        let new = await TestKeys.make(keyID: "new")
        let served = Mutex(old.jwks)
        let fetches = Mutex(0)
        let verifier = AccessTokenVerifier(
            jwks: JWKSClient {
                fetches.withLock { $0 += 1 }
                return served.withLock { $0 }
            }, refetchInterval: .zero)
        _ = try await verifier.verify(try await old.token())
        _ = try await verifier.verify(try await old.token())
        XCTAssertEqual(fetches.withLock { $0 }, 1, "cached after the first fetch")
        served.withLock { $0 = new.jwks }
        _ = try await verifier.verify(try await new.token())
        XCTAssertEqual(fetches.withLock { $0 }, 2)
    }

    func testUnknownKeyIDsDoNotHammerTheKeyServer() async throws {
        let keys = await TestKeys.make(keyID: "real")
        let stranger = await TestKeys.make(keyID: "stranger")
        let fetches = Mutex(0)
        let verifier = AccessTokenVerifier(
            jwks: JWKSClient {
                fetches.withLock { $0 += 1 }
                return keys.jwks
            }, refetchInterval: .seconds(60))
        for _ in 0..<20 { await assertCode(.tokenInvalid, verifier, try await stranger.token()) }
        XCTAssertEqual(fetches.withLock { $0 }, 1)
    }

    func testHeaderSegmentIsConstant() async throws {
        let keys = await TestKeys.make(keyID: "constant")
        let first = try await keys.token(user: "a"), second = try await keys.token(user: "b", expiresIn: 10)
        XCTAssertEqual(first.split(separator: ".")[0], second.split(separator: ".")[0])
        let header = try XCTUnwrap(Base64URL.decode(first.split(separator: ".")[0]))
        XCTAssertEqual(String(decoding: header, as: UTF8.self), #"{"alg":"ES256","kid":"constant","typ":"JWT"}"#)
    }

    private func assertCode(_ code: ErrorCode, _ verifier: AccessTokenVerifier, _ token: String, line: UInt = #line) async {
        do {
            _ = try await verifier.verify(token)
            XCTFail("accepted", line: line)
        } catch {
            XCTAssertEqual(error.code, code, line: line)
        }
    }
}

final class KeySetCacheConcurrencyTests: XCTestCase {
    func testConcurrentCallersOnAColdCacheShareOneFetch() async throws {
        let keys = await TestKeys.make()
        let fetches = Mutex(0)
        let verifier = AccessTokenVerifier(
            jwks: JWKSClient {
                fetches.withLock { $0 += 1 }
                try await Task.sleep(for: .milliseconds(20))
                return keys.jwks
            }, refetchInterval: .seconds(60))
        let token = try await keys.token()
        try await withThrowingTaskGroup(of: AuthenticatedUser.self) { group in
            for _ in 0..<20 { group.addTask { try await verifier.verify(token) } }
            for try await user in group { XCTAssertEqual(user.userID, "user-1") }
        }
        XCTAssertEqual(fetches.withLock { $0 }, 1)
    }
}

final class InternalJWKSTests: XCTestCase {
    /// The live key source other services use: auth-svc's JWKS over the internal client, which
    /// must send the internal secret.
    func testVerifierFetchesKeysFromAuthOverTheInternalClient() async throws {
        let keys = await TestKeys.make()
        let router = Router()
        router.get("/.well-known/jwks.json") { request, _ -> Response in
            guard request.headers[.init(InternalHeader.secret)!] == TestEnvironment.internalSecret else {
                return JSONCoding.response(status: .forbidden, body: CanonicalError(code: .forbidden, message: "internal endpoint"))
            }
            return JSONCoding.response(body: keys.jwks)
        }
        let auth = try await LiveServer.start(router)
        var common = TestEnvironment.common(.chat, dataDirectory: try TestEnvironment.temporaryDirectory())
        common.serviceURLs[.auth] = auth.url
        let verifier = AccessTokenVerifier(jwks: .live(client: InternalClient(http: .shared, configuration: common)))
        let user = try await verifier.verify(try await keys.token(user: "u-live"))
        XCTAssertEqual(user.userID, "u-live")

        var wrongSecret = common
        wrongSecret.internalSecret = "another-secret-0123456789"
        let refused = AccessTokenVerifier(jwks: .live(client: InternalClient(http: .shared, configuration: wrongSecret)))
        do {
            _ = try await refused.verify(try await keys.token())
            XCTFail("keys fetched without the secret")
        } catch let error as ServiceError {
            XCTAssertEqual(error.code, .tokenInvalid)
        }
        await auth.stop()
    }
}

/// How clients send the token: raw or after a `Bearer` of any case, with blanks around.
final class TokenHeaderTests: XCTestCase {
    func testTheTokenOutOfTheHeader() {
        let cases: [(String?, String?)] = [
            (nil, nil), ("", nil), ("   ", nil), ("abc.def.ghi", "abc.def.ghi"), ("  abc.def  ", "abc.def"), ("\tabc\t", "abc"),
            ("Bearer abc", "abc"), ("bearer   abc ", "abc"), ("BEARER abc", "abc"), ("Bearer ", "Bearer"), ("Bearer  ", "Bearer"),
            ("Bearerabc", "Bearerabc"), ("Basic abc", "Basic abc"), ("Bearer 토큰", "토큰"),
        ]
        for (header, token) in cases {
            XCTAssertEqual(AccessTokenMiddleware.token(fromHeader: header), token, "\(header ?? "nil")")
        }
    }
}
