import Contracts
import ServiceKit

/// market-svc's wallet as workspaces pay from it: a spend once per key (`notEnoughCoins` when
/// short), and a spend given back.
struct CoinsClient: Sendable {
    var spend: @Sendable (_ spend: CoinSpend, _ appID: String, _ requestID: String) async throws -> Void
    var giveBack: @Sendable (_ key: String, _ appID: String, _ requestID: String) async throws -> Void

    static func live(_ client: InternalClient) -> CoinsClient {
        CoinsClient(
            spend: { spend, appID, requestID in
                _ = try await client.call(InternalEndpoints.Market.spendCoins, body: spend, for: .init(appID: appID, requestID: requestID))
            },
            giveBack: { key, appID, requestID in
                _ = try await client.call(InternalEndpoints.Market.returnSpend, body: CoinSpendKey(key: key), for: .init(appID: appID, requestID: requestID))
            }
        )
    }

    static let failing = CoinsClient(
        spend: { _, _, _ in throw ServiceError.unavailable(.market) },
        giveBack: { _, _, _ in throw ServiceError.unavailable(.market) }
    )
}
