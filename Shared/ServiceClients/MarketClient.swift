import Contracts
import ServiceKit

/// market-svc as every other service calls it, one closure per internal endpoint. Tests start
/// from `unimplemented` (a call fails the test) or `failing` (market-svc is down) and set the
/// closures they expect to be called.
package struct MarketClient: Sendable {
    /// The order a payment is for; nil when market-svc has no such order (in the app, or in any
    /// app when `appID` is nil). payment-verify-svc.
    package var order: @Sendable (_ code: String, _ appID: String?, _ requestID: String?) async throws -> OrderRecordAnswer?
    /// Idempotent: an order is paid once, and answers the same item again. payment-verify-svc.
    package var markPaid: @Sendable (_ code: String, _ appID: String, _ requestID: String?) async throws -> PaidOrderItem
    /// The order unpaid again (its payment refunded); idempotent. payment-verify-svc.
    package var markRefunded: @Sendable (_ code: String, _ appID: String) async throws -> Void
    /// Idempotent per the grant's key (`imp_uid`). payment-verify-svc, auth-svc (signup coins).
    package var grantCoins: @Sendable (_ grant: PaymentGrantEvent) async throws -> CoinGrantAnswer
    /// The coins taken back once per `imp_uid`, never below zero. payment-verify-svc.
    package var refundCoins: @Sendable (_ event: PaymentGrantEvent) async throws -> CoinRefundAnswer
    /// The ids of a user's posts. auth-svc (profiles).
    package var postIDs: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> [String]
    /// A user's coins. auth-svc (`/v1/users/me/profile`).
    package var coins: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> Int
    /// A revoked account's content removed; idempotent. auth-svc.
    package var accountRevoked: @Sendable (_ event: AccountRevokedEvent) async throws -> Void
    /// A spend once per key (`notEnoughCoins` when short). chat-svc (workspace purchases).
    package var spendCoins: @Sendable (_ spend: CoinSpend, _ appID: String, _ requestID: String) async throws -> Void
    /// A spend given back. chat-svc.
    package var returnSpend: @Sendable (_ key: String, _ appID: String, _ requestID: String) async throws -> Void
    /// Posts rendered as the caller (whose token goes along) may see them. geo-svc.
    package var posts: @Sendable (_ ids: [String], _ authorization: String, _ appID: String, _ requestID: String) async throws -> [PostAnswer]

    package static func live(_ client: InternalClient) -> MarketClient {
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
            markRefunded: { code, appID in
                _ = try await client.call(InternalEndpoints.Market.orderRefunded, code, for: .init(appID: appID))
            },
            grantCoins: { grant in
                try await client.call(InternalEndpoints.Market.grantCoins, body: grant, for: .init(appID: grant.appID))
            },
            refundCoins: { event in
                try await client.call(InternalEndpoints.Market.refundCoins, body: event, for: .init(appID: event.appID))
            },
            postIDs: { userID, appID, requestID in
                try await client.call(InternalEndpoints.Market.postIDs, userID, for: .init(appID: appID, requestID: requestID)).userIDs
            },
            coins: { userID, appID, requestID in
                try await client.call(InternalEndpoints.Market.wallet, userID, for: .init(appID: appID, requestID: requestID)).coins
            },
            accountRevoked: { event in
                _ = try await client.call(InternalEndpoints.Market.accountRevoked, body: event, for: .init(appID: event.appID))
            },
            spendCoins: { spend, appID, requestID in
                _ = try await client.call(InternalEndpoints.Market.spendCoins, body: spend, for: .init(appID: appID, requestID: requestID))
            },
            returnSpend: { key, appID, requestID in
                _ = try await client.call(
                    InternalEndpoints.Market.returnSpend, body: CoinSpendKey(key: key), for: .init(appID: appID, requestID: requestID))
            },
            posts: { ids, authorization, appID, requestID in
                try await client.call(
                    InternalEndpoints.Market.postBatch, body: PostBatchRequest(postIDs: ids),
                    for: .init(appID: appID, requestID: requestID, authorization: authorization)
                ).data
            }
        )
    }

    /// market-svc down: every call fails as the live client's would.
    package static var failing: MarketClient { every { _ in ServiceError.unavailable(.market) } }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: MarketClient { every { Unimplemented.call("MarketClient." + $0) } }

    private static func every(_ failure: @escaping @Sendable (_ operation: String) -> any Error) -> MarketClient {
        MarketClient(
            order: { _, _, _ in throw failure("order") }, markPaid: { _, _, _ in throw failure("markPaid") },
            markRefunded: { _, _ in throw failure("markRefunded") }, grantCoins: { _ in throw failure("grantCoins") },
            refundCoins: { _ in throw failure("refundCoins") }, postIDs: { _, _, _ in throw failure("postIDs") },
            coins: { _, _, _ in throw failure("coins") }, accountRevoked: { _ in throw failure("accountRevoked") },
            spendCoins: { _, _, _ in throw failure("spendCoins") }, returnSpend: { _, _, _ in throw failure("returnSpend") },
            posts: { _, _, _, _ in throw failure("posts") }
        )
    }
}
