import Contracts
import Foundation
import Launcher
import ServiceKit
import Synchronization
import TestSupport
import XCTest

/// `glint backup create` while writers post, chat and pay through the gateway (issue 37): every
/// write acknowledged before the snapshot began is in the restored copy, nothing is there twice,
/// and every payment the restored copy records is granted, once. (How long those writes take
/// during a snapshot is measured by `Benchmarks/run.sh backup`, not here.)
final class BackupUnderLoadTests: XCTestCase {
    /// A write the suite acknowledged, and when.
    struct Ack: Sendable {
        enum Kind: Sendable { case post, chat, payment }
        var kind: Kind
        var id: String
        var at: Int64
    }

    struct Refused: Error {
        var what: String
    }

    final class Writes: Sendable {
        private let state = Mutex<(acks: [Ack], stopped: Bool, failure: String?)>(([], false, nil))
        var stopped: Bool { state.withLock { $0.stopped } }
        var failure: String? { state.withLock { $0.failure } }
        func stop() { state.withLock { $0.stopped = true } }
        /// A writer refused: every writer stops, and the test says why.
        func fail(_ error: any Error) {
            state.withLock { state in
                state.failure = state.failure ?? "\(error)"
                state.stopped = true
            }
        }
        func record(_ kind: Ack.Kind, _ id: String) {
            let at = GlintDate.nowMilliseconds()
            state.withLock { $0.acks.append(Ack(kind: kind, id: id, at: at)) }
        }
        func acks(_ kind: Ack.Kind, before time: Int64 = .max) -> [String] {
            state.withLock { $0.acks.filter { $0.kind == kind && $0.at < time }.map(\.id) }
        }
    }

    func testEveryWriteAcknowledgedBeforeTheSnapshotIsRestoredOnceAndPaymentsAreGrantedOnce() async throws {
        let pg = try await PortOneSimulator.start()
        // One client writes as fast as it can: the rate limits are not what is tested.
        let environment = [
            "GATEWAY_RATE_PER_IP": "100000", "GATEWAY_BURST_PER_IP": "100000", "GATEWAY_RATE_PER_APP": "100000", "GATEWAY_BURST_PER_APP": "100000",
            "PORTONE_API_URL": pg.url, "PORTONE_IMP_KEY": PortOneSimulator.key, "PORTONE_IMP_SECRET": PortOneSimulator.secret,
        ]
        let services: [ServiceName] = [.market, .chat, .paymentVerify]
        let suite = try await AuthAndGateway.start(environment, with: services)
        do {
            let seller = try await FilesInBucketTests.join(suite, "seller")
            let alice = try await FilesInBucketTests.join(suite, "alice")
            let bob = try await FilesInBucketTests.join(suite, "bob")
            let opened = try await suite.call(.POST, "/v1/chats", token: alice.accessToken, json: #"{"opponent_id":"\#(bob.userID)"}"#)
            let room = try JSON.string(try JSON.object(opened.body), "room_id")

            let writes = Writes()
            @Sendable func ok(_ answer: HTTPProbe.Answer, _ what: String) throws -> [String: Any] {
                guard answer.status == 200 else { throw Refused(what: "\(what): \(answer.status) \(answer.body.text)") }
                return try JSON.object(answer.body)
            }
            let writers = Task {
                do {
                    try await writeUntilStopped()
                } catch {
                    writes.fail(error)
                }
            }
            @Sendable func writeUntilStopped() async throws {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        var n = 0
                        while !writes.stopped {
                            n += 1
                            let post = try ok(
                                try await suite.call(
                                    .POST, "/v1/posts", token: alice.accessToken, json: #"{"category":"walk","title":"글 \#(n)","content":"c"}"#),
                                "post")
                            writes.record(.post, try JSON.string(post, "post_id"))
                        }
                    }
                    group.addTask {
                        var n = 0
                        while !writes.stopped {
                            n += 1
                            let chat = try ok(
                                try await suite.call(.POST, "/v1/chats/\(room)", token: alice.accessToken, json: #"{"content":"말 \#(n)"}"#), "chat")
                            writes.record(.chat, try JSON.string(chat, "chat_id"))
                        }
                    }
                    group.addTask {
                        var n = 0
                        while !writes.stopped {
                            n += 1
                            let filter = try JSON.string(
                                try ok(
                                    try await suite.call(
                                        .POST, "/v1/filters", token: seller.accessToken,
                                        json: """
                                            {"category":"film","title":"f\(n)","price":100,"description":"d","files":["/data/filters/a.jpg"],"filter_values":{"brightness":0.1}}
                                            """), "filter"), "filter_id")
                            let code = try JSON.string(
                                try ok(
                                    try await suite.call(
                                        .POST, "/v1/orders", token: alice.accessToken, json: #"{"filter_id":"\#(filter)","total_price":100}"#),
                                    "order"), "order_code")
                            let impUID = pg.createPayment(merchantUID: code, amount: 100)
                            _ = try ok(
                                try await suite.call(.POST, "/v1/payments/validation", token: alice.accessToken, json: #"{"imp_uid":"\#(impUID)"}"#),
                                "payment")
                            writes.record(.payment, filter)
                        }
                    }
                    try await group.waitForAll()
                }
            }
            // Writes under way (a few of each), then the snapshot, then a few more.
            func acknowledged(atLeast count: Int) async -> Bool {
                await HTTPProbe.eventually(within: .seconds(60)) {
                    writes.failure != nil || [Ack.Kind.post, .chat, .payment].allSatisfy { writes.acks($0).count >= count } ? true : nil
                } ?? false
            }
            let underWay = await acknowledged(atLeast: 3)
            XCTAssertTrue(underWay, "the writers got going")
            if let failure = writes.failure { throw Refused(what: failure) }
            let started = GlintDate.nowMilliseconds()
            let create = try RunningProcess("glint", arguments: ["backup", "create", "--data-dir", suite.dataDirectory], environment: [:])
            let status = try await create.exitStatus(within: .seconds(120))
            XCTAssertEqual(status, 0, create.transcript)
            let id = try XCTUnwrap(create.transcript.split(separator: "\n").last.map(String.init))
            let before = [Ack.Kind.post, .chat, .payment].map { writes.acks($0).count }
            let after = await HTTPProbe.eventually(within: .seconds(60)) {
                writes.failure != nil || zip([Ack.Kind.post, .chat, .payment], before).allSatisfy { writes.acks($0).count >= $1 + 2 } ? true : nil
            }
            XCTAssertEqual(after, true, "the writes went on after the snapshot")
            writes.stop()
            await writers.value
            if let failure = writes.failure { throw Refused(what: failure) }

            let restored = try await AuthAndGateway.start(environment, with: services) { folder in
                _ = try await Backups.restore(id: id, into: .init(dataDirectory: folder), from: .folder(suite.dataDirectory + "/backups"))
            }
            try await restored.running { restored in
                // Each test suite signs with keys of its own: alice signs in again, with her password.
                let login = try await restored.call(.POST, "/v1/users/login", json: #"{"email":"alice@glint.app","password":"pass1234!"}"#)
                XCTAssertEqual(login.status, 200, login.body.text)
                let token = try JSONDecoder().decode(AuthAnswer.self, from: login.body).accessToken
                let posts = writes.acks(.post, before: started)
                for post in posts {
                    let answer = try await restored.call(.GET, "/v1/posts/\(post)", token: token)
                    XCTAssertEqual(answer.status, 200, "post \(post), acknowledged before the snapshot")
                }
                var postIDs: [String] = []
                var next = ""
                repeat {
                    let page = try JSON.object(
                        try await restored.call(.GET, "/v1/posts/users/\(alice.userID)?limit=100&next=\(next)", token: token).body)
                    postIDs += try XCTUnwrap(page["data"] as? [[String: Any]]).compactMap { $0["post_id"] as? String }
                    next = try XCTUnwrap(page["next_cursor"] as? String)
                } while next != "0"
                XCTAssertEqual(Set(postIDs).count, postIDs.count, "no post twice")
                XCTAssertTrue(Set(posts).isSubset(of: postIDs))

                var chats: [[String: Any]] = []
                while true {
                    let after = (chats.last?["createdAt"] as? String).map { "&cursor_date=" + $0 } ?? ""
                    let answer = try await restored.call(.GET, "/v1/chats/\(room)?limit=100" + after, token: token)
                    let page = try XCTUnwrap(try JSON.object(answer.body)["data"] as? [[String: Any]], answer.body.text)
                    if page.isEmpty { break }
                    chats += page
                }
                let chatIDs = chats.compactMap { $0["chat_id"] as? String }
                XCTAssertEqual(Set(chatIDs).count, chatIDs.count, "no message twice")
                XCTAssertEqual(Set(chats.compactMap { $0["content"] as? String }).count, chats.count, "no message sent twice")
                XCTAssertTrue(Set(writes.acks(.chat, before: started)).isSubset(of: chatIDs), "every message acknowledged before the snapshot")

                // Every payment the restored copy records, before the snapshot or during it, is
                // granted once: bought, with one buyer, and one order paid for it.
                let paidBefore = Set(writes.acks(.payment, before: started))
                var recorded = 0
                for filter in writes.acks(.payment) {
                    let receipt = try await restored.call(.GET, "/v1/payments/\(filter)", token: token)
                    if receipt.status != 200 {
                        XCTAssertFalse(paidBefore.contains(filter), "payment for \(filter), acknowledged before the snapshot: \(receipt.body.text)")
                        continue
                    }
                    recorded += 1
                    let buyers = await HTTPProbe.eventually(within: .seconds(30)) { () -> Int? in
                        guard let answer = try? await restored.call(.GET, "/v1/filters/\(filter)", token: token),
                            let detail = try? JSON.object(answer.body), detail["is_downloaded"] as? Bool == true
                        else { return nil }
                        return detail["buyer_count"] as? Int
                    }
                    XCTAssertEqual(buyers, 1, "filter \(filter) granted once")
                }
                XCTAssertGreaterThanOrEqual(recorded, paidBefore.count)
                print(
                    "acknowledged before the snapshot: \(posts.count) posts, \(writes.acks(.chat, before: started).count) chats, "
                        + "\(paidBefore.count) payments; the restored copy records \(recorded) of \(writes.acks(.payment).count) payments")
                let orders = try await restored.call(.GET, "/v1/orders", token: token)
                let codes = try XCTUnwrap(try JSON.object(orders.body)["data"] as? [[String: Any]]).compactMap { $0["order_code"] as? String }
                XCTAssertEqual(Set(codes).count, codes.count, "no order twice")
            }
            await suite.stop()
        } catch {
            await suite.stop()
            throw error
        }
        await pg.stop()
    }
}
