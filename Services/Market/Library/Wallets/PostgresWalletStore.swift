import PostgresNIO
import PostgresStorage
import ServiceKit

/// `WalletStore` on PostgreSQL. A wallet's row is locked for each change that reads its balance
/// first, and a spend key is locked for its whole operation, so replicas change a wallet in turn.
struct PostgresWalletStore: WalletStore {
    let pool: PostgresPool

    func grant(impUID: String, appID: String, userID: String, coins: Int, at time: Int64) async throws -> (coins: Int, granted: Bool) {
        let logger = pool.logger
        return try await pool.transaction { connection in
            let granted =
                try await connection.count(
                    """
                    INSERT INTO coin_grant (imp_uid, app_id, user_id, coins, created_at) VALUES (\(impUID), \(appID), \(userID), \(coins), \(time))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, logger: logger) > 0
            if granted {
                try await connection.query(
                    """
                    INSERT INTO wallet (app_id, user_id, coins, updated_at) VALUES (\(appID), \(userID), \(coins), \(time))
                    ON CONFLICT (app_id, user_id) DO UPDATE SET coins = wallet.coins + excluded.coins, updated_at = excluded.updated_at
                    """, logger: logger)
            }
            return (try await Self.balance(connection, appID: appID, userID: userID, lock: false, logger: logger), granted)
        }
    }

    func refund(impUID: String, appID: String, userID: String, at time: Int64) async throws -> (coins: Int, debited: Int, refunded: Bool) {
        let logger = pool.logger
        return try await pool.transaction { connection in
            let balance = try await Self.balance(connection, appID: appID, userID: userID, lock: true, logger: logger)
            guard
                let granted = try await connection.value(
                    Int.self,
                    """
                    SELECT coins FROM coin_grant WHERE imp_uid = \(impUID) AND app_id = \(appID) AND user_id = \(userID) AND refunded_at IS NULL FOR UPDATE
                    """, logger: logger)
            else {
                let debited = try await connection.value(Int.self, "SELECT debited FROM coin_grant WHERE imp_uid = \(impUID)", logger: logger) ?? 0
                return (balance, debited, false)
            }
            let debited = WalletRules.refundDebit(granted: granted, balance: balance)
            try await connection.query("UPDATE coin_grant SET refunded_at = \(time), debited = \(debited) WHERE imp_uid = \(impUID)", logger: logger)
            try await connection.query(
                """
                UPDATE wallet SET coins = coins - \(debited), updated_at = \(time) WHERE app_id = \(appID) AND user_id = \(userID)
                """, logger: logger)
            return (balance - debited, debited, true)
        }
    }

    func spend(key: String, appID: String, userID: String, coins: Int, at time: Int64) async throws -> Int? {
        let logger = pool.logger
        return try await pool.transaction { connection in
            try await Self.lock(connection, key: key, logger: logger)
            let balance = try await Self.balance(connection, appID: appID, userID: userID, lock: true, logger: logger)
            let existing = try await Self.spent(connection, key: key, appID: appID, logger: logger)
            switch try WalletRules.spend(coins, by: userID, balance: balance, existing: existing) {
            case .answer(let balance): return balance
            case .short: return nil
            case .take(let coins, let balance):
                try await connection.query(
                    """
                    INSERT INTO coin_spend (key, app_id, user_id, coins, created_at) VALUES (\(key), \(appID), \(userID), \(coins), \(time))
                    """, logger: logger)
                try await connection.query(
                    """
                    UPDATE wallet SET coins = coins - \(coins), updated_at = \(time) WHERE app_id = \(appID) AND user_id = \(userID)
                    """, logger: logger)
                return balance
            }
        }
    }

    func returnSpend(key: String, appID: String, at time: Int64) async throws {
        let logger = pool.logger
        try await pool.transaction { connection in
            try await Self.lock(connection, key: key, logger: logger)
            switch WalletRules.giveBack(try await Self.spent(connection, key: key, appID: appID, logger: logger)) {
            case .nothing: return
            case .tombstone:
                try await connection.query(
                    """
                    INSERT INTO coin_spend (key, app_id, user_id, coins, created_at, returned_at) VALUES (\(key), \(appID), '', 0, \(time), \(time))
                    """, logger: logger)
            case .giveBack(let userID, let coins):
                try await connection.query("UPDATE coin_spend SET returned_at = \(time) WHERE key = \(key)", logger: logger)
                try await connection.query(
                    """
                    UPDATE wallet SET coins = coins + \(coins), updated_at = \(time) WHERE app_id = \(appID) AND user_id = \(userID)
                    """, logger: logger)
            }
        }
    }

    private static func spent(_ connection: PostgresConnection, key: String, appID: String, logger: Logger) async throws -> WalletRules.Spent? {
        let rows = try await connection.query(
            "SELECT user_id, coins, returned_at FROM coin_spend WHERE key = \(key) AND app_id = \(appID)", logger: logger)
        var spent: WalletRules.Spent?
        for try await (userID, coins, returnedAt) in rows.decode((String, Int, Int64?).self) {
            spent = WalletRules.Spent(userID: userID, coins: coins, returnedAt: returnedAt)
        }
        return spent
    }

    func balance(appID: String, userID: String) async throws -> Int {
        try await pool.read { try await Self.balance($0, appID: appID, userID: userID, lock: false, logger: pool.logger) }
    }

    private static func balance(_ connection: PostgresConnection, appID: String, userID: String, lock: Bool, logger: Logger) async throws -> Int {
        try await connection.value(
            Int.self,
            """
            SELECT coins FROM wallet WHERE app_id = \(appID) AND user_id = \(userID) \(unescaped: lock ? "FOR UPDATE" : "")
            """, logger: logger) ?? 0
    }

    /// A spend key's operations in turn, also before its row exists.
    private static func lock(_ connection: PostgresConnection, key: String, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\("spend " + key), 0))", logger: logger)
    }
}
