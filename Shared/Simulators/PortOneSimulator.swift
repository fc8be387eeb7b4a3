import Foundation
import Hummingbird
import ServiceKit
import Synchronization

/// PortOne (iamport) v1 REST as our server uses it: `POST /users/getToken`, `GET /payments/{imp_uid}`
/// and `POST /payments/cancel`, each answering PortOne's `{code, message, response}` envelope.
/// Tests create payments with any status and amount, make it fail on demand, and send webhooks;
/// in development (`glint --simulate-portone`) `POST /simulator/payments {merchant_uid, amount,
/// status?}` stands in for the iamport SDK on the device and answers the payment's `imp_uid`.
package final class PortOneSimulator: Sendable {
    package static let key = "sim-imp-key", secret = "sim-imp-secret-0123456789"

    package struct Payment: Codable, Sendable {
        package var imp_uid: String
        package var merchant_uid: String
        package var amount: Int
        package var currency = "KRW"
        package var status: String
        package var pay_method = "card"
        package var pg_provider = "html5_inicis"
        package var card_name: String? = "신한카드"
        package var name: String
        package var buyer_name = "홍길동"
        package var paid_at: Int64
        package var receipt_url: String
    }

    /// Shared by the handlers and the test.
    final class State: Sendable {
        let payments = Mutex<[String: Payment]>([:])
        let tokens = Mutex<Set<String>>([])
        let cancelled = Mutex<[String]>([])
        let tokenRequests = Mutex(0)
        /// While positive, every call answers 503 and counts down.
        let failures = FailureCountdown()
        let down = Mutex(false)

        func create(merchantUID: String, amount: Int, status: String, name: String) -> Payment {
            let impUID = "imp_" + String(UInt64.random(in: 100_000_000_000...999_999_999_999))
            let paidAt = status == "paid" ? Int64(Date().timeIntervalSince1970) : 0
            let payment = Payment(
                imp_uid: impUID, merchant_uid: merchantUID, amount: amount, status: status, name: name, paid_at: paidAt,
                receipt_url: "https://receipt.example/\(impUID)")
            payments.withLock { $0[impUID] = payment }
            return payment
        }
    }

    struct Envelope<Response: Encodable>: Encodable {
        var code: Int
        var message: String?
        var response: Response?
    }

    struct Token: Encodable { var access_token: String; var now: Int64; var expired_at: Int64 }
    struct TokenRequest: Decodable { var imp_key: String; var imp_secret: String }
    struct CancelRequest: Decodable { var imp_uid: String; var reason: String? }
    struct CreateRequest: Decodable { var merchant_uid: String; var amount: Int; var status: String?; var name: String? }

    package let server: LiveServer
    private let state: State

    package var url: String { server.url }

    package static func start() async throws -> PortOneSimulator {
        let state = State()
        let router = Router()
        @Sendable func failing() -> Response? {
            let fail = state.down.withLock { $0 } || state.failures.take()
            return fail ? JSONCoding.response(status: .serviceUnavailable, body: Envelope<String>(code: -1, message: "temporarily unavailable")) : nil
        }
        @Sendable func authorized(_ request: Request) -> Bool {
            guard let token = request.headers[.authorization] else { return false }
            return state.tokens.withLock { $0.contains(token) }
        }
        let unauthorized = JSONCoding.response(status: .unauthorized, body: Envelope<String>(code: -1, message: "Unauthorized"))
        router.post("/users/getToken") { request, context in
            if let failure = failing() { return failure }
            state.tokenRequests.withLock { $0 += 1 }
            let body = try await request.decode(as: TokenRequest.self, context: context)
            guard body.imp_key == key, body.imp_secret == secret else {
                return JSONCoding.response(status: .unauthorized, body: Envelope<String>(code: -1, message: "imp_key 또는 imp_secret이 올바르지 않습니다."))
            }
            let token = "sim-token-" + UUID().uuidString
            state.tokens.withLock { _ = $0.insert(token) }
            let now = Int64(Date().timeIntervalSince1970)
            return JSONCoding.response(body: Envelope(code: 0, response: Token(access_token: token, now: now, expired_at: now + 1800)))
        }
        router.get("/payments/{imp_uid}") { request, context in
            if let failure = failing() { return failure }
            guard authorized(request) else { return unauthorized }
            guard let payment = state.payments.withLock({ $0[context.parameters.get("imp_uid") ?? ""] }) else {
                return JSONCoding.response(status: .notFound, body: Envelope<String>(code: -1, message: "존재하지 않는 결제정보입니다."))
            }
            return JSONCoding.response(body: Envelope(code: 0, response: payment))
        }
        router.post("/payments/cancel") { request, context in
            if let failure = failing() { return failure }
            guard authorized(request) else { return unauthorized }
            let body = try await request.decode(as: CancelRequest.self, context: context)
            let answer = state.payments.withLock { payments -> Envelope<Payment> in
                guard var payment = payments[body.imp_uid] else { return Envelope(code: 1, message: "취소할 결제건이 존재하지 않습니다.") }
                guard payment.status == "paid" else { return Envelope(code: 1, message: "이미 전액취소된 주문입니다.") }
                payment.status = "cancelled"
                payments[body.imp_uid] = payment
                return Envelope(code: 0, response: payment)
            }
            if answer.code == 0 { state.cancelled.withLock { $0.append(body.imp_uid) } }
            return JSONCoding.response(body: answer)
        }
        router.post("/simulator/payments") { request, context in
            let body = try await request.decode(as: CreateRequest.self, context: context)
            guard !body.merchant_uid.isEmpty, body.merchant_uid.count <= 100, body.amount >= 0,
                ["paid", "ready", "failed", "cancelled"].contains(body.status ?? "paid")
            else {
                return JSONCoding.response(status: .badRequest, body: Envelope<String>(code: -1, message: "merchant_uid, amount and a known status"))
            }
            let payment = state.create(
                merchantUID: body.merchant_uid, amount: body.amount, status: body.status ?? "paid", name: body.name ?? "payment")
            return JSONCoding.response(body: Envelope(code: 0, response: payment))
        }
        return PortOneSimulator(server: try await LiveServer.start(router), state: state)
    }

    private init(server: LiveServer, state: State) {
        self.server = server
        self.state = state
    }

    /// A payment as the iamport SDK leaves it on the device: answers its `imp_uid`.
    @discardableResult
    package func createPayment(merchantUID: String, amount: Int, status: String = "paid", name: String = "filter") -> String {
        state.create(merchantUID: merchantUID, amount: amount, status: status, name: name).imp_uid
    }

    package func status(of impUID: String) -> String? { state.payments.withLock { $0[impUID]?.status } }
    /// The payment cancelled by the merchant at PortOne's console (a refund after the grant).
    package func cancelAtConsole(_ impUID: String) { state.payments.withLock { $0[impUID]?.status = "cancelled" } }
    package var cancelled: [String] { state.cancelled.withLock { $0 } }
    package var tokenRequests: Int { state.tokenRequests.withLock { $0 } }
    /// The next `count` calls answer 503.
    package func fail(next count: Int) { state.failures.set(count) }
    /// Every call answers 503 until set back.
    package func setDown(_ down: Bool) { state.down.withLock { $0 = down } }

    /// PortOne's webhook body for a payment (`{imp_uid, merchant_uid, status}`), as JSON text.
    package func webhookBody(_ impUID: String) -> String {
        let payment = state.payments.withLock { $0[impUID] }
        return #"{"imp_uid":"\#(impUID)","merchant_uid":"\#(payment?.merchant_uid ?? "")","status":"\#(payment?.status ?? "paid")"}"#
    }

    package func stop() async { await server.stop() }
}
