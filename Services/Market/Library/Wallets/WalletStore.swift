/// Coin wallets per user and app.
protocol WalletStore: Sendable {
    /// Adds `coins` once per `impUID` (a payment); answers the wallet's coins and whether this
    /// call added them.
    func grant(impUID: String, appID: String, userID: String, coins: Int, at time: Int64) async throws -> (coins: Int, granted: Bool)
    /// Takes back what the payment `impUID` granted, once: its coins, or the wallet's balance when
    /// less is left (coins already spent stay spent). Answers the wallet, what was taken, and
    /// whether this call took it.
    func refund(impUID: String, appID: String, userID: String, at time: Int64) async throws -> (coins: Int, debited: Int, refunded: Bool)
    /// The user's coins (0 without a wallet).
    func balance(appID: String, userID: String) async throws -> Int
}
