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
    /// Spends `coins` once per `key`: answers the coins left (the same on a retry), nil when the
    /// wallet is short (nothing spent); `StoreError.conflict` when the key was given back.
    func spend(key: String, appID: String, userID: String, coins: Int, at time: Int64) async throws -> Int?
    /// Gives the spend of `key` back once; a key not spent yet is closed, so it can never be spent.
    func returnSpend(key: String, appID: String, at time: Int64) async throws
}
