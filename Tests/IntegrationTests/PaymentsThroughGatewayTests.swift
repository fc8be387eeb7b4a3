import Contracts
import Foundation
import NIOCore
import ServiceKit
import TestSupport
import XCTest

/// auth-svc, market-svc, payment-verify-svc and the gateway as processes; PortOne is the
/// simulator, reached by payment-verify-svc's real client.
final class PaymentsThroughGatewayTests: XCTestCase {
    static let webhookSecret = "integration-webhook-secret-0123"

    func testPaymentsAreVerifiedAndGrantedOnce() async throws {
        let pg = try await PortOneSimulator.start()
        let suite = try await AuthAndGateway.start(
            [
                "PORTONE_API_URL": pg.url, "PORTONE_IMP_KEY": PortOneSimulator.key, "PORTONE_IMP_SECRET": PortOneSimulator.secret,
                "PAYMENT_WEBHOOK_SECRET": Self.webhookSecret,
            ], with: [.market, .paymentVerify])
        var restarted: RunningProcess?
        do {
            func join(_ nick: String) async throws -> AuthAnswer {
                let answer = try await suite.call(
                    .POST, "/v1/users/join", json: #"{"email":"\#(nick)@glint.app","password":"pass1234!","nick":"\#(nick)"}"#)
                return try JSONDecoder().decode(AuthAnswer.self, from: answer.body)
            }
            let seller = try await join("seller"), alice = try await join("alice"), bob = try await join("bob")
            func filter(price: Int) async throws -> String {
                let created = try await suite.call(
                    .POST, "/v1/filters", token: seller.accessToken,
                    json: """
                        {"category":"film","title":"warm","price":\(price),"description":"d","files":["/data/filters/a.jpg"],"filter_values":{"brightness":0.1}}
                        """)
                XCTAssertEqual(created.status, 200, created.body.text)
                return try JSON.string(try JSON.object(created.body), "filter_id")
            }
            func order(_ filterID: String, price: Int, by buyer: AuthAnswer) async throws -> String {
                let ordered = try await suite.call(
                    .POST, "/v1/orders", token: buyer.accessToken, json: #"{"filter_id":"\#(filterID)","total_price":\#(price)}"#)
                XCTAssertEqual(ordered.status, 200, ordered.body.text)
                return try JSON.string(try JSON.object(ordered.body), "order_code")
            }
            func detail(_ filterID: String, as buyer: AuthAnswer) async throws -> [String: Any] {
                try JSON.object(try await suite.call(.GET, "/v1/filters/\(filterID)", token: buyer.accessToken).body)
            }
            func validate(_ impUID: String, as buyer: AuthAnswer) async throws -> HTTPProbe.Answer {
                try await suite.call(.POST, "/v1/payments/validation", token: buyer.accessToken, json: #"{"imp_uid":"\#(impUID)"}"#)
            }
            func webhook(_ impUID: String) async throws -> HTTPProbe.Answer {
                try await HTTPProbe.call(
                    .POST, suite.gatewayURL + "/v1/payments/webhook?secret=\(Self.webhookSecret)",
                    headers: [("Content-Type", "application/json")], body: ByteBuffer(string: pg.webhookBody(impUID)))
            }

            // The happy path, with validation twice and the webhook three times.
            let filterID = try await filter(price: 3000)
            let code = try await order(filterID, price: 3000, by: alice)
            let impUID = pg.createPayment(merchantUID: code, amount: 3000)
            for _ in 0..<3 { let hooked = try await webhook(impUID).status; XCTAssertEqual(hooked, 200) }
            for _ in 0..<2 {
                let answer = try await validate(impUID, as: alice)
                XCTAssertEqual(answer.status, 200, answer.body.text)
                XCTAssertEqual((try JSON.object(answer.body)["order_item"] as? [String: Any])?["order_code"] as? String, code)
            }
            let shown = try await detail(filterID, as: alice)
            XCTAssertEqual(shown["is_downloaded"] as? Bool, true)
            XCTAssertEqual(shown["buyer_count"] as? Int, 1, "granted once")
            let orders = try await suite.call(.GET, "/v1/orders", token: alice.accessToken)
            XCTAssertEqual((try JSON.object(orders.body)["data"] as? [[String: Any]])?.map { $0["order_code"] as? String }, [code])
            let receipt = try await suite.call(.GET, "/v1/payments/\(filterID)", token: alice.accessToken)
            XCTAssertEqual(try JSON.object(receipt.body)["imp_uid"] as? String, impUID, "GLINT asks by filter id")

            // Refunded at the PG after the grant: the webhook unpays the order; the receipt says so.
            pg.cancelAtConsole(impUID)
            let hookedRefund = try await webhook(impUID).status
            XCTAssertEqual(hookedRefund, 200)
            let unpaid = await HTTPProbe.eventually(within: .seconds(20)) { () -> Bool? in
                let answer = try? await suite.call(.GET, "/v1/filters/\(filterID)", token: alice.accessToken)
                return answer.flatMap { (try? JSON.object($0.body))?["is_downloaded"] as? Bool } == false ? true : nil
            }
            XCTAssertEqual(unpaid, true, "the refunded order is unpaid again")
            let refundedOrders = try await suite.call(.GET, "/v1/orders", token: alice.accessToken)
            XCTAssertEqual((try JSON.object(refundedOrders.body)["data"] as? [Any])?.count, 0)
            let mine = try JSON.object(try await suite.call(.GET, "/v1/payments/me", token: alice.accessToken).body)
            XCTAssertEqual(((mine["data"] as? [[String: Any]])?.first)?["status"] as? String, "cancelled")

            // Amount mismatch: 400, cancelled at the PG. Someone else's order: refused.
            let second = try await filter(price: 2000)
            let aliceOrder = try await order(second, price: 2000, by: alice)
            let short = pg.createPayment(merchantUID: aliceOrder, amount: 200)
            let mismatch = try await validate(short, as: alice)
            XCTAssertEqual(mismatch.status, 400)
            JSON.assertKeys(try JSON.object(mismatch.body), ["message"])
            XCTAssertEqual(pg.status(of: short), "cancelled")
            let paidByAlice = pg.createPayment(merchantUID: aliceOrder, amount: 2000)
            let stranger = try await validate(paidByAlice, as: bob)
            XCTAssertEqual(stranger.status, 445)
            let secondBuyers = try await detail(second, as: alice)["buyer_count"] as? Int
            XCTAssertEqual(secondBuyers, 0)

            // PortOne down: a clear 503, nothing granted; the retry succeeds.
            pg.setDown(true)
            let down = try await validate(paidByAlice, as: alice)
            XCTAssertEqual(down.status, 503)
            let downloadedWhileDown = try await detail(second, as: alice)["is_downloaded"] as? Bool
            XCTAssertEqual(downloadedWhileDown, false)
            pg.setDown(false)
            let retried = try await validate(paidByAlice, as: alice).status
            XCTAssertEqual(retried, 200)
            let downloadedAfterRetry = try await detail(second, as: alice)["is_downloaded"] as? Bool
            XCTAssertEqual(downloadedAfterRetry, true)

            // market-svc down when the webhook arrives: granted once it is back, with no new request.
            let third = try await filter(price: 1000)
            let bobOrder = try await order(third, price: 1000, by: bob)
            let bobPayment = pg.createPayment(merchantUID: bobOrder, amount: 1000)
            let payments = try XCTUnwrap(suite.process(.paymentVerify))
            await suite.process(.market)?.stop()
            let hookedWhileMarketDown = try await webhook(bobPayment).status
            XCTAssertEqual(hookedWhileMarketDown, 200)
            _ = try await payments.line(containing: "outbox delivery failed")
            restarted = try await suite.restart(.market)
            let granted = await HTTPProbe.eventually(within: .seconds(20)) { () -> Bool? in
                let answer = try? await suite.call(.GET, "/v1/filters/\(third)", token: bob.accessToken)
                return answer.flatMap { (try? JSON.object($0.body))?["is_downloaded"] as? Bool } == true ? true : nil
            }
            XCTAssertEqual(granted, true)
            let thirdBuyers = try await detail(third, as: bob)["buyer_count"] as? Int
            XCTAssertEqual(thirdBuyers, 1)
        } catch {
            await restarted?.stop()
            await suite.stop()
            await pg.stop()
            throw error
        }
        await restarted?.stop()
        await suite.stop()
        await pg.stop()
    }
}
