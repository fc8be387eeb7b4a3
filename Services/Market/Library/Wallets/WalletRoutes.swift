import Contracts
import Hummingbird
import ServiceKit

/// The internal wallet endpoints: coin grants and refunds (payment-verify-svc's outbox), balances
/// (auth-svc), spends (chat-svc's workspaces).
struct WalletRoutes: Sendable {
    let wallets: WalletService

    func register(internal group: ServiceApplication.Group) {
        group.serve(InternalEndpoints.Market.grantCoins) { _, event, _ in try await wallets.grant(event) }
        group.serve(InternalEndpoints.Market.refundCoins) { _, event, _ in try await wallets.refund(event) }
        group.serve(InternalEndpoints.Market.spendCoins) { _, spend, context in try await wallets.spend(spend, appID: try context.requireAppID()) }
        group.serve(InternalEndpoints.Market.returnSpend) { _, key, context in try await wallets.returnSpend(key, appID: try context.requireAppID()) }
        group.serve(InternalEndpoints.Market.wallet) { userID, _, context in try await wallets.balance(of: userID, appID: try context.requireAppID())
        }
    }
}
