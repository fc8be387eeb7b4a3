import Contracts
import ServiceKit

/// What payment-verify-svc asks market-svc: the order a payment is for, and the grants.
struct MarketClient: Sendable {
    /// Nil when market-svc has no such order (in the app, or in any app when `appID` is nil).
    var order: @Sendable (_ code: String, _ appID: String?, _ requestID: String?) async throws -> OrderRecordAnswer?
    /// Idempotent: an order is paid once, and answers the same item again.
    var markPaid: @Sendable (_ code: String, _ appID: String, _ requestID: String?) async throws -> PaidOrderItem
    /// Idempotent per `imp_uid`.
    var grantCoins: @Sendable (_ event: PaymentGrantEvent) async throws -> CoinGrantAnswer
    /// The order unpaid again (its payment refunded); idempotent.
    var markRefunded: @Sendable (_ code: String, _ appID: String) async throws -> Void
    /// The coins taken back once per `imp_uid`, never below zero.
    var refundCoins: @Sendable (_ event: PaymentGrantEvent) async throws -> CoinRefundAnswer

    static func live(_ client: InternalClient) -> MarketClient {
        MarketClient(
            order: { code, appID, requestID in
                do {
                    return try await client.call(InternalEndpoints.Market.order, code, for: .init(appID: appID, requestID: requestID))
                } catch let error as ServiceError where error.code == .notFound {
                    return nil
                }
            },
            markPaid: { code, appID, requestID in
                try await client.call(InternalEndpoints.Market.orderPaid, code, for: .init(appID: appID, requestID: requestID))
            },
            grantCoins: { event in
                try await client.call(InternalEndpoints.Market.grantCoins, body: event, for: .init(appID: event.appID))
            },
            markRefunded: { code, appID in
                _ = try await client.call(InternalEndpoints.Market.orderRefunded, code, for: .init(appID: appID))
            },
            refundCoins: { event in
                try await client.call(InternalEndpoints.Market.refundCoins, body: event, for: .init(appID: event.appID))
            }
        )
    }

    static let failing = MarketClient(
        order: { _, _, _ in throw ServiceError.unavailable(.market) },
        markPaid: { _, _, _ in throw ServiceError.unavailable(.market) },
        grantCoins: { _ in throw ServiceError.unavailable(.market) },
        markRefunded: { _, _ in throw ServiceError.unavailable(.market) },
        refundCoins: { _ in throw ServiceError.unavailable(.market) }
    )
}
