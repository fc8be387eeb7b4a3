import Contracts
import ServiceKit

/// What payment-verify-svc asks market-svc: the order a payment is for, and the grants.
struct MarketOrders: Sendable {
    /// Nil when market-svc has no such order (in the app, or in any app when `appID` is nil).
    var order: @Sendable (_ code: String, _ appID: String?, _ requestID: String?) async throws -> OrderRecordAnswer?
    /// Idempotent: an order is paid once, and answers the same item again.
    var markPaid: @Sendable (_ code: String, _ appID: String, _ requestID: String?) async throws -> PaidOrderItem
    /// Idempotent per `imp_uid`.
    var grantCoins: @Sendable (_ event: PaymentGrantEvent) async throws -> CoinGrantAnswer

    static func live(_ client: InternalClient) -> MarketOrders {
        MarketOrders(
            order: { code, appID, requestID in
                do {
                    return try await client.get(.market, "/internal/orders/\(code)", headers: appID.map { [(InternalHeader.appID, $0)] } ?? [],
                                                requestID: requestID, as: OrderRecordAnswer.self)
                } catch let error as ServiceError where error.code == .notFound {
                    return nil
                }
            },
            markPaid: { code, appID, requestID in
                try await client.post(.market, "/internal/orders/\(code)/paid", body: EmptyAnswer(), headers: [(InternalHeader.appID, appID)],
                                      requestID: requestID, as: PaidOrderItem.self)
            },
            grantCoins: { event in
                try await client.post(.market, "/internal/wallets/coins", body: event, headers: [(InternalHeader.appID, event.appID)], as: CoinGrantAnswer.self)
            }
        )
    }
}
