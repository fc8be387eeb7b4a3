import GRDB
import SQLiteStorage
import ServiceKit

/// `WalletStore` on market-svc's SQLite file.
struct SQLiteWalletStore: WalletStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func grant(impUID: String, appID: String, userID: String, coins: Int, at time: Int64) async throws -> (coins: Int, granted: Bool) {
        try await database.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO coin_grant (imp_uid, app_id, user_id, coins, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [impUID, appID, userID, coins, time])
            let granted = db.changesCount > 0
            if granted {
                try db.execute(
                    sql: """
                        INSERT INTO wallet (app_id, user_id, coins, updated_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT(app_id, user_id) DO UPDATE SET coins = coins + excluded.coins, updated_at = excluded.updated_at
                        """, arguments: [appID, userID, coins, time])
            }
            return (try Self.balance(db, appID: appID, userID: userID), granted)
        }
    }

    func refund(impUID: String, appID: String, userID: String, at time: Int64) async throws -> (coins: Int, debited: Int, refunded: Bool) {
        try await database.write { db in
            let balance = try Self.balance(db, appID: appID, userID: userID)
            guard
                let granted = try Int.fetchOne(
                    db,
                    sql: """
                        SELECT coins FROM coin_grant WHERE imp_uid = ? AND app_id = ? AND user_id = ? AND refunded_at IS NULL
                        """, arguments: [impUID, appID, userID])
            else {
                let debited = try Int.fetchOne(db, sql: "SELECT debited FROM coin_grant WHERE imp_uid = ?", arguments: [impUID]) ?? 0
                return (balance, debited, false)
            }
            let debited = WalletRules.refundDebit(granted: granted, balance: balance)
            try db.execute(sql: "UPDATE coin_grant SET refunded_at = ?, debited = ? WHERE imp_uid = ?", arguments: [time, debited, impUID])
            try db.execute(
                sql: "UPDATE wallet SET coins = coins - ?, updated_at = ? WHERE app_id = ? AND user_id = ?",
                arguments: [debited, time, appID, userID])
            return (balance - debited, debited, true)
        }
    }

    func spend(key: String, appID: String, userID: String, coins: Int, at time: Int64) async throws -> Int? {
        try await database.write { db in
            let balance = try Self.balance(db, appID: appID, userID: userID)
            switch try WalletRules.spend(coins, by: userID, balance: balance, existing: try Self.spent(db, key: key, appID: appID)) {
            case .answer(let balance): return balance
            case .short: return nil
            case .take(let coins, let balance):
                try db.execute(
                    sql: "INSERT INTO coin_spend (key, app_id, user_id, coins, created_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [key, appID, userID, coins, time])
                try db.execute(
                    sql: "UPDATE wallet SET coins = coins - ?, updated_at = ? WHERE app_id = ? AND user_id = ?",
                    arguments: [coins, time, appID, userID])
                return balance
            }
        }
    }

    func returnSpend(key: String, appID: String, at time: Int64) async throws {
        try await database.write { db in
            switch WalletRules.giveBack(try Self.spent(db, key: key, appID: appID)) {
            case .nothing: return
            case .tombstone:
                try db.execute(
                    sql: "INSERT INTO coin_spend (key, app_id, user_id, coins, created_at, returned_at) VALUES (?, ?, '', 0, ?, ?)",
                    arguments: [key, appID, time, time])
            case .giveBack(let userID, let coins):
                try db.execute(sql: "UPDATE coin_spend SET returned_at = ? WHERE key = ?", arguments: [time, key])
                try db.execute(
                    sql: "UPDATE wallet SET coins = coins + ?, updated_at = ? WHERE app_id = ? AND user_id = ?",
                    arguments: [coins, time, appID, userID])
            }
        }
    }

    func balance(appID: String, userID: String) async throws -> Int {
        try lookups.readNow { db in try Self.balance(db, appID: appID, userID: userID) }
    }

    private static func balance(_ db: Database, appID: String, userID: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT coins FROM wallet WHERE app_id = ? AND user_id = ?", arguments: [appID, userID]) ?? 0
    }

    private static func spent(_ db: Database, key: String, appID: String) throws -> WalletRules.Spent? {
        try Row.fetchOne(db, sql: "SELECT user_id, coins, returned_at FROM coin_spend WHERE key = ? AND app_id = ?", arguments: [key, appID]).map {
            WalletRules.Spent(userID: $0["user_id"], coins: $0["coins"], returnedAt: $0["returned_at"])
        }
    }
}
