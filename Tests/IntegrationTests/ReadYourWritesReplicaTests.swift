import Contracts
import Foundation
import JWTKit
import NIOHTTP1
import ServiceKit
import Simulators
import Storage
import TestSupport
import XCTest

/// What a user's request changed is in their very next request, also when market-svc runs as two
/// replicas on one PostgreSQL database and the next request lands on the other one. auth-svc
/// tells replica B (its `MARKET_SVC_URL`), payment-verify-svc grants at replica A; every read
/// goes through both gateways, one sending market-svc's requests to A, the other to B.
final class ReadYourWritesReplicaTests: XCTestCase {
    static let workspaceKey = "ryw-slp-key"

    func testBlocksDeletionAndCoinsAcrossTwoMarketReplicas() async throws {
        let (pool, databaseURL) = try await TestPostgres.freshDatabase()
        pool.close()
        let apple = try await AppleSimulator.start(), kakao = try await KakaoBookSimulator.start(), portOne = try await PortOneSimulator.start()
        let teamKey = ES256PrivateKey()
        await apple.registerClient(QuoteHubThroughGatewayTests.clientID, teamID: "TEAM123456", keyID: "KEY1234567", publicKey: teamKey.publicKey)
        let marketPorts = [try FreePort.pick(), try FreePort.pick()]
        let (replicaA, replicaB) = ("http://127.0.0.1:\(marketPorts[0])", "http://127.0.0.1:\(marketPorts[1])")
        let suite = try await AuthAndGateway.start(
            [
                "AUTH_APPLE_KEYS_URL": apple.keysURL, "AUTH_APPLE_TOKEN_URL": apple.tokenURL, "AUTH_APPLE_REVOKE_URL": apple.revokeURL,
                "MARKET_KAKAO_BOOK_URL": kakao.url, "MARKET_KAKAO_REST_KEY": KakaoBookSimulator.restKey,
                "PORTONE_API_URL": portOne.url, "PORTONE_IMP_KEY": PortOneSimulator.key, "PORTONE_IMP_SECRET": PortOneSimulator.secret,
                "MARKET_DATABASE_URL": databaseURL, ServiceName.market.urlVariable: replicaA,
            ], with: [.paymentVerify], overrides: ["auth-svc": [ServiceName.market.urlVariable: replicaB]]
        ) { dataDirectory in
            _ = try await QuoteHubThroughGatewayTests.createApp(in: dataDirectory, teamKey: teamKey)
            // The registry is not empty, so no development app: the §1 app is made here too.
            for arguments in [
                ["--name", "Freeworkers", "--profile", "slp", "--key", Self.workspaceKey], ["--name", "SpotChat", "--key", AuthAndGateway.appKey],
            ] {
                let create = try RunningProcess(
                    "auth-svc", arguments: ["apps", "create"] + arguments, environment: ["DATA_DIR": dataDirectory, "PATH": "/usr/bin:/bin"])
                let status = try await create.exitStatus()
                XCTAssertEqual(status, 0, create.transcript)
            }
        }
        var processes: [RunningProcess] = []
        do {
            processes = try marketPorts.map { port in
                try RunningProcess("market-svc", environment: suite.environment.merging(["PORT": "\(port)"]) { $1 })
            }
            let gatewayPort = try FreePort.pick()
            processes.append(
                try RunningProcess(
                    "gateway",
                    environment: suite.environment.merging([
                        "PORT": "\(gatewayPort)", ServiceName.market.urlVariable: replicaB,
                    ]) { $1 }))
            for process in processes { _ = try await process.line(containing: "listening on") }
            // Market-svc's requests go to A through one, to B through the other.
            let gateways = [suite, suite.through(gatewayAt: "http://127.0.0.1:\(gatewayPort)")]
            try await quoteHub(gateways, apple: apple)
            try await posts(gateways)
            try await coins(gateways, portOne: portOne)
        } catch {
            for process in processes { await process.stop() }
            await suite.stop()
            throw error
        }
        for process in processes { await process.stop() }
        await suite.stop()
        await apple.stop()
        await kakao.stop()
        await portOne.stop()
    }

    /// A block, an unblock and a deleted account, seen in the next public feed and keyword search
    /// on both replicas (each of which had kept what the reader hid before the change).
    private func quoteHub(_ gateways: [AuthAndGateway], apple: AppleSimulator) async throws {
        let replays = gateways.map { QuoteHubReplay(suite: $0, apple: apple, clientID: QuoteHubThroughGatewayTests.clientID) }
        let anna = try await replays[0].signIn("ryw.anna"), ben = try await replays[0].signIn("ryw.ben")
        let book = try await replays[0].object(.GET, "/book/search?query=%EA%B9%80%EC%9C%A0%EC%A0%95&page=1")
        let bookID = try JSON.string(try XCTUnwrap((book["documents"] as? [[String: Any]])?.first), "_id")
        let story = try JSON.string(
            try await replays[0].object(
                .POST, "/bookstories/createBookStory", ben.token,
                json: """
                    {"bookId":"\(bookID)","quotes":[{"quote":"벤의 봄 문장"}],"isPublic":true,"keywords":["봄"]}
                    """), "_id")
        func seen(_ replay: QuoteHubReplay, _ token: String?) async throws -> (feed: Bool, search: Bool) {
            let (feed, _) = try await replay.page("/bookstories/public", token)
            let (search, _) = try await replay.page("/bookstories/public/search?keyword=%EB%B4%84", token)
            return (feed.contains(story), search.contains(story))
        }
        for replay in replays {
            let before = try await seen(replay, anna.token)
            XCTAssertTrue(before.feed && before.search, "\(replay.base): the story before the block")
        }
        for round in 1...3 {
            _ = try await replays[0].data(.POST, "/block-report/block", anna.token, json: #"{"targetUserId":"\#(ben.id)"}"#)
            for replay in replays {
                let blocked = try await seen(replay, anna.token)
                XCTAssertFalse(
                    blocked.feed || blocked.search, "round \(round), \(replay.base): the blocked author's story in the blocker's next read")
            }
            _ = try await replays[1].data(.POST, "/block-report/unblock", anna.token, json: #"{"targetUserId":"\#(ben.id)"}"#)
            for replay in replays {
                let unblocked = try await seen(replay, anna.token)
                XCTAssertTrue(unblocked.feed && unblocked.search, "round \(round), \(replay.base): back in the next read after the unblock")
            }
        }
        for replay in replays {
            let guest = try await seen(replay, nil)
            XCTAssertTrue(guest.feed, "\(replay.base): guests see it before the deletion")
        }
        let revoked = try await replays[0].object(.POST, "/auth/revoke", ben.token)["revoked"] as? Bool
        XCTAssertEqual(revoked, true)
        for replay in replays {
            let guest = try await seen(replay, nil)
            XCTAssertFalse(guest.feed || guest.search, "\(replay.base): nothing of the deleted account after its deletion answered")
        }
    }

    /// §1: a block hides the blocked user's posts from the blocker's next feed, on both replicas.
    private func posts(_ gateways: [AuthAndGateway]) async throws {
        func join(_ nick: String) async throws -> AuthAnswer {
            let answer = try await gateways[0].call(
                .POST, "/v1/users/join", json: #"{"email":"\#(nick)@ryw.app","password":"pass1234!","nick":"\#(nick)"}"#)
            XCTAssertEqual(answer.status, 200, answer.body.text)
            return try JSONDecoder().decode(AuthAnswer.self, from: answer.body)
        }
        let alice = try await join("alice"), bob = try await join("bob")
        let created = try await gateways[1].call(
            .POST, "/v1/posts", token: alice.accessToken, json: #"{"category":"walk","title":"산책","content":"봄"}"#)
        XCTAssertEqual(created.status, 200, created.body.text)
        let post = try JSON.string(try JSON.object(created.body), "post_id")
        func feed(_ gateway: AuthAndGateway) async throws -> [String] {
            let answer = try await gateway.call(.GET, "/v1/posts", token: bob.accessToken)
            XCTAssertEqual(answer.status, 200, answer.body.text)
            return try XCTUnwrap(try JSON.object(answer.body)["data"] as? [[String: Any]]).compactMap { $0["post_id"] as? String }
        }
        for gateway in gateways {
            let before = try await feed(gateway)
            XCTAssertTrue(before.contains(post), "\(gateway.gatewayURL): the post before the block")
        }
        let blocked = try await gateways[0].call(.POST, "/v1/users/\(alice.userID)/block", token: bob.accessToken)
        XCTAssertEqual(blocked.status, 200, blocked.body.text)
        for gateway in gateways {
            let after = try await feed(gateway)
            XCTAssertFalse(after.contains(post), "\(gateway.gatewayURL): the blocked user's post in the blocker's next feed")
        }
        let unblocked = try await gateways[1].call(.DELETE, "/v1/users/\(alice.userID)/block", token: bob.accessToken)
        XCTAssertEqual(unblocked.status, 200, unblocked.body.text)
        for gateway in gateways {
            let after = try await feed(gateway)
            XCTAssertTrue(after.contains(post), "\(gateway.gatewayURL): back after the unblock")
        }
    }

    /// §8: signup coins and 20 purchases, each in the balance read right after it (granted at
    /// replica A, read by auth-svc from replica B).
    private func coins(_ gateways: [AuthAndGateway], portOne: PortOneSimulator) async throws {
        let joined = try await gateways[0].call(
            .POST, "/v1/users/join", key: Self.workspaceKey,
            json: #"{"email":"coins@ryw.app","password":"pass1234!","nickname":"coins"}"#)
        XCTAssertEqual(joined.status, 200, joined.body.text)
        let token = try JSONDecoder().decode(SlpAuthOut.self, from: joined.body).extra.token.accessToken
        func balance(_ gateway: AuthAndGateway) async throws -> Int? {
            let me = try await gateway.call(.GET, "/v1/users/me", key: Self.workspaceKey, token: token)
            XCTAssertEqual(me.status, 200, me.body.text)
            return try JSON.object(me.body)["sesacCoin"] as? Int
        }
        let signup = try await balance(gateways[1])
        XCTAssertEqual(signup, 100, "signup coins in the wallet when the join answered")
        for purchase in 1...20 {
            let impUID = portOne.createPayment(merchantUID: "ryw-coins-\(purchase)", amount: 100, name: "10 Coin")
            let bought = try await gateways[purchase % 2].call(
                .POST, "/v1/store/pay/validation", key: Self.workspaceKey, token: token,
                json: #"{"imp_uid":"\#(impUID)","merchant_uid":"ryw-coins-\#(purchase)"}"#)
            XCTAssertEqual(bought.status, 200, bought.body.text)
            let now = try await balance(gateways[(purchase + 1) % 2])
            XCTAssertEqual(now, 100 + 10 * purchase, "purchase \(purchase): the coins are in the next read")
        }
    }
}
