/// Coin wallets per user and app.
protocol WalletStore: Sendable {
    /// Adds `coins` once per `impUID` (a payment); answers the wallet's coins and whether this
    /// call added them.
    func grant(impUID: String, appID: String, userID: String, coins: Int, at time: Int64) async throws -> (coins: Int, granted: Bool)
}
