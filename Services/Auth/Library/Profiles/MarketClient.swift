import Contracts
import ServiceKit

/// What auth-svc asks market-svc: the ids of a user's posts, a user's coins (both owned there),
/// and (from its outbox) the coins a new workspace user starts with and a revoked account's
/// content to remove.
struct MarketClient: Sendable {
    var postIDs: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> [String]
    var coins: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> Int
    /// Idempotent per the grant's key (`imp_uid`).
    var grantCoins: @Sendable (_ grant: PaymentGrantEvent) async throws -> Void
    /// A revoked account's content removed; idempotent.
    var accountRevoked: @Sendable (_ event: AccountRevokedEvent) async throws -> Void

    static func live(_ client: InternalClient) -> MarketClient {
        MarketClient(
            postIDs: { userID, appID, requestID in
                try await client.call(InternalEndpoints.Market.postIDs, userID, for: .init(appID: appID, requestID: requestID)).userIDs
            },
            coins: { userID, appID, requestID in
                try await client.call(InternalEndpoints.Market.wallet, userID, for: .init(appID: appID, requestID: requestID)).coins
            },
            grantCoins: { grant in
                _ = try await client.call(InternalEndpoints.Market.grantCoins, body: grant, for: .init(appID: grant.appID))
            },
            accountRevoked: { event in
                _ = try await client.call(InternalEndpoints.Market.accountRevoked, body: event, for: .init(appID: event.appID))
            }
        )
    }

    static let failing = MarketClient(
        postIDs: { _, _, _ in throw ServiceError.unavailable(.market) },
        coins: { _, _, _ in throw ServiceError.unavailable(.market) },
        grantCoins: { _ in throw ServiceError.unavailable(.market) },
        accountRevoked: { _ in throw ServiceError.unavailable(.market) }
    )
}
