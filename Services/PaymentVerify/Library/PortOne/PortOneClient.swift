import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceKit
import Synchronization

/// PortOne (iamport) v1 REST: the payment as the PG knows it, and cancelling it. Live over
/// AsyncHTTPClient; tests run `PortOneSimulator` behind the same client.
struct PortOneClient: Sendable {
    /// Nil when PortOne has no such payment.
    var payment: @Sendable (_ impUID: String) async throws -> PortOnePayment?
    var cancel: @Sendable (_ impUID: String, _ reason: String) async throws -> Void

    /// PortOne's envelope: `code` 0 is success; anything else carries a `message`.
    struct Envelope<Response: Decodable>: Decodable {
        var code: Int
        var message: String?
        var response: Response?
    }

    struct Token: Decodable {
        var accessToken: String
        var expiredAt: Int64
        var now: Int64

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiredAt = "expired_at"
            case now
        }
    }

    /// An access token kept until a minute before PortOne says it expires.
    final class TokenCache: Sendable {
        private let current = Mutex<(token: String, until: ContinuousClock.Instant)?>(nil)

        func valid() -> String? {
            current.withLock { entry in entry.flatMap { $0.until > .now ? $0.token : nil } }
        }

        func store(_ token: Token) {
            let lifetime = max(0, token.expiredAt - token.now - 60)
            current.withLock { $0 = (token.accessToken, .now + .seconds(lifetime)) }
        }

        func drop() { current.withLock { $0 = nil } }
    }

    static func live(http: HTTPClient, settings: PortOneSettings, logger: Logger) -> PortOneClient {
        let tokens = TokenCache()
        let caller = Caller(http: http, settings: settings, tokens: tokens, logger: logger)
        return PortOneClient(
            payment: { impUID in
                let path = "/payments/" + (impUID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? impUID)
                return try await caller.call(.GET, path, body: nil, as: PortOnePayment.self, notFoundIsNil: true)
            },
            cancel: { impUID, reason in
                let body = ["imp_uid": impUID, "reason": reason]
                _ = try await caller.call(
                    .POST, "/payments/cancel", body: try JSONEncoder().encode(body), as: PortOnePayment.self, notFoundIsNil: false)
            }
        )
    }

    /// One authenticated call with retries: network errors and 5xx are tried three times with a
    /// growing pause; a 401 renews the token once.
    struct Caller: Sendable {
        let http: HTTPClient
        let settings: PortOneSettings
        let tokens: TokenCache
        let logger: Logger

        func call<Answer: Decodable & Sendable>(
            _ method: HTTPMethod, _ path: String, body: Data?, as _: Answer.Type, notFoundIsNil: Bool
        ) async throws -> Answer? {
            var renewed = false
            for attempt in 1...3 {
                guard let token = try await token() else {
                    try await pause(attempt)
                    continue
                }
                let (status, buffer): (UInt, ByteBuffer)
                do {
                    (status, buffer) = try await send(method, path, body: body, token: token)
                } catch {
                    logger.warning("PortOne unreachable", metadata: ["path": "\(path)", "attempt": "\(attempt)", "error": "\(error)"])
                    try await pause(attempt)
                    continue
                }
                if status == 401, !renewed {
                    tokens.drop()
                    renewed = true
                    continue
                }
                if status >= 500 {
                    logger.warning("PortOne failed", metadata: ["path": "\(path)", "status": "\(status)", "attempt": "\(attempt)"])
                    try await pause(attempt)
                    continue
                }
                if status == 404, notFoundIsNil { return nil }
                let envelope = try? JSONDecoder().decode(Envelope<Answer>.self, from: buffer)
                guard let envelope, envelope.code == 0, let answer = envelope.response else {
                    let message = envelope?.message ?? "HTTP \(status)"
                    logger.error("PortOne refused", metadata: ["path": "\(path)", "status": "\(status)", "message": "\(message)"])
                    throw ServiceError(.unavailable, "payment provider refused the request: \(message)")
                }
                return answer
            }
            throw ServiceError(.unavailable, "payment provider unavailable, try again")
        }

        private func pause(_ attempt: Int) async throws {
            if attempt < 3 { try await Task.sleep(for: .milliseconds(200 * attempt)) }
        }

        /// The cached token or a new one; nil when PortOne could not be reached (worth a retry).
        private func token() async throws -> String? {
            if let token = tokens.valid() { return token }
            guard !settings.key.isEmpty, !settings.secret.isEmpty else {
                throw ServiceError(.unavailable, "payments are not configured on this server")
            }
            let body = try JSONEncoder().encode(["imp_key": settings.key, "imp_secret": settings.secret])
            let (status, buffer): (UInt, ByteBuffer)
            do {
                (status, buffer) = try await send(.POST, "/users/getToken", body: body, token: nil)
            } catch {
                logger.warning("PortOne unreachable", metadata: ["path": "/users/getToken", "error": "\(error)"])
                return nil
            }
            if status >= 500 { return nil }
            guard let envelope = try? JSONDecoder().decode(Envelope<Token>.self, from: buffer), envelope.code == 0, let token = envelope.response
            else {
                logger.error("PortOne refused our credentials", metadata: ["status": "\(status)"])
                throw ServiceError(.unavailable, "payment provider refused our credentials")
            }
            tokens.store(token)
            return token.accessToken
        }

        private func send(_ method: HTTPMethod, _ path: String, body: Data?, token: String?) async throws -> (UInt, ByteBuffer) {
            var request = HTTPClientRequest(url: settings.baseURL + path)
            request.method = method
            if let token { request.headers.add(name: "Authorization", value: token) }
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            let response = try await http.execute(request, timeout: .seconds(10))
            return (response.status.code, try await response.body.collect(upTo: 1 << 20))
        }
    }

    /// No call expected: the first one fails the running test.
    static let unimplemented = PortOneClient(
        payment: { _ in throw Unimplemented.call("PortOneClient.payment") }, cancel: { _, _ in throw Unimplemented.call("PortOneClient.cancel") }
    )
}
