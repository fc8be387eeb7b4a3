import GRDB

/// `WalletStore` on market-svc's SQLite file.
struct SQLiteWalletStore: WalletStore {
    let database: any DatabaseWriter

    func grant(impUID: String, appID: String, userID: String, coins: Int, at time: Int64) async throws -> (coins: Int, granted: Bool) {
        try await database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO coin_grant (imp_uid, app_id, user_id, coins, created_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [impUID, appID, userID, coins, time])
            let granted = db.changesCount > 0
            if granted {
                try db.execute(sql: """
                    INSERT INTO wallet (app_id, user_id, coins, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(app_id, user_id) DO UPDATE SET coins = coins + excluded.coins, updated_at = excluded.updated_at
                    """, arguments: [appID, userID, coins, time])
            }
            let total = try Int.fetchOne(db, sql: "SELECT coins FROM wallet WHERE app_id = ? AND user_id = ?", arguments: [appID, userID]) ?? 0
            return (total, granted)
        }
    }
}
