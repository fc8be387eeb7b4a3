import Contracts
import GRDB
import ServiceKit

/// Coin wallets: payment-verify-svc grants what a verified coin payment bought.
struct WalletService: Sendable {
    let database: any DatabaseWriter

    /// Adds the coins once per `imp_uid`; a repeated grant changes nothing and answers the wallet.
    func grant(_ event: PaymentGrantEvent) async throws -> CoinGrantAnswer {
        guard event.kind == .coins, !event.impUID.isEmpty, event.impUID.count <= 100, ObjectID.isValid(event.userID),
              !event.appID.isEmpty, (1...10_000_000).contains(event.coins) else {
            throw ServiceError.badRequest("invalid coin grant")
        }
        let now = GlintDate.nowMilliseconds()
        return try await database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO coin_grant (imp_uid, app_id, user_id, coins, created_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [event.impUID, event.appID, event.userID, event.coins, now])
            let granted = db.changesCount > 0
            if granted {
                try db.execute(sql: """
                    INSERT INTO wallet (app_id, user_id, coins, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(app_id, user_id) DO UPDATE SET coins = coins + excluded.coins, updated_at = excluded.updated_at
                    """, arguments: [event.appID, event.userID, event.coins, now])
            }
            let coins = try Int.fetchOne(db, sql: "SELECT coins FROM wallet WHERE app_id = ? AND user_id = ?", arguments: [event.appID, event.userID]) ?? 0
            return CoinGrantAnswer(coins: coins, granted: granted)
        }
    }
}
