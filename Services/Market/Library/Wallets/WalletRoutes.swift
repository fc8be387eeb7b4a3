import Contracts
import Hummingbird
import ServiceKit

/// The internal wallet endpoint payment-verify-svc's outbox delivers coin grants to.
struct WalletRoutes: Sendable {
    let wallets: WalletService

    func register(internal group: ServiceApplication.Group) {
        group.post("/internal/wallets/coins") { request, context -> CoinGrantAnswer in
            try await wallets.grant(try await request.decode(as: PaymentGrantEvent.self, context: context))
        }
    }
}
