import Contracts
import ServiceKit

/// Coin wallets: payment-verify-svc grants what a verified coin payment bought.
struct WalletService: Sendable {
    let store: any WalletStore

    /// Adds the coins once per `imp_uid`; a repeated grant changes nothing and answers the wallet.
    func grant(_ event: PaymentGrantEvent) async throws -> CoinGrantAnswer {
        try Self.check(event)
        let wallet = try await store.grant(
            impUID: event.impUID, appID: event.appID, userID: event.userID, coins: event.coins, at: GlintDate.nowMilliseconds())
        return CoinGrantAnswer(coins: wallet.coins, granted: wallet.granted)
    }

    /// Takes a refunded payment's coins back once per `imp_uid`, never below zero: coins the user
    /// spent meanwhile stay spent, and the rest of the wallet goes.
    func refund(_ event: PaymentGrantEvent) async throws -> CoinRefundAnswer {
        try Self.check(event)
        let wallet = try await store.refund(impUID: event.impUID, appID: event.appID, userID: event.userID, at: GlintDate.nowMilliseconds())
        return CoinRefundAnswer(coins: wallet.coins, debited: wallet.debited, refunded: wallet.refunded)
    }

    /// Spends coins once per key; `notEnoughCoins` when the wallet is short.
    func spend(_ spend: CoinSpend, appID: String) async throws -> CoinBalance {
        guard Self.validKey(spend.key), ObjectID.isValid(spend.userID), (1...1_000_000).contains(spend.coins) else {
            throw ServiceError.badRequest("invalid coin spend")
        }
        guard
            let left = try await store.spend(key: spend.key, appID: appID, userID: spend.userID, coins: spend.coins, at: GlintDate.nowMilliseconds())
        else {
            throw ServiceError(.notEnoughCoins, "not enough coins")
        }
        return CoinBalance(coins: left)
    }

    func returnSpend(_ spend: CoinSpendKey, appID: String) async throws -> EmptyAnswer {
        guard Self.validKey(spend.key) else { throw ServiceError.badRequest("invalid coin spend key") }
        try await store.returnSpend(key: spend.key, appID: appID, at: GlintDate.nowMilliseconds())
        return EmptyAnswer()
    }

    private static func validKey(_ key: String) -> Bool { (1...100).contains(key.utf8.count) }

    func balance(of userID: String, appID: String) async throws -> CoinBalance {
        CoinBalance(coins: try await store.balance(appID: appID, userID: userID))
    }

    private static func check(_ event: PaymentGrantEvent) throws {
        guard event.kind == .coins, !event.impUID.isEmpty, event.impUID.count <= 100, ObjectID.isValid(event.userID),
            !event.appID.isEmpty, (1...10_000_000).contains(event.coins)
        else {
            throw ServiceError.badRequest("invalid coin grant")
        }
    }
}
