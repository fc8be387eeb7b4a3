import Contracts
import Hummingbird
import ServiceKit

/// The internal wallet endpoints payment-verify-svc's outbox delivers coin grants and refunds to.
struct WalletRoutes: Sendable {
    let wallets: WalletService

    func register(internal group: ServiceApplication.Group) {
        group.serve(InternalEndpoints.Market.grantCoins) { _, event, _ in try await wallets.grant(event) }
        group.serve(InternalEndpoints.Market.refundCoins) { _, event, _ in try await wallets.refund(event) }
        group.serve(InternalEndpoints.Market.wallet) { userID, _, context in try await wallets.balance(of: userID, appID: try context.requireAppID()) }
    }
}
