import PostgresNIO
import PostgresStorage
import ServiceKit

/// `OrderStore` on PostgreSQL.
struct PostgresOrderStore: OrderStore {
    let pool: PostgresPool

    func open(_ new: OrderRecord) async throws -> OrderRecord {
        let logger = pool.logger
        return try await pool.transaction { connection in
            // One buyer opening the same filter's order twice at once (two replicas) gets one order.
            try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(new.buyerID + " " + new.filterID), 0))", logger: logger)
            let existing = try await connection.records(
                OrderRecord.self,
                """
                SELECT * FROM purchase_order WHERE buyer_id = \(new.buyerID) AND filter_id = \(new.filterID)
                """, logger: logger)
            if let pending = try OrderRules.open(existing: existing) { return pending }
            try await connection.query(try PostgresColumns(new).insert(into: "purchase_order"), logger: logger)
            return new
        }
    }

    func paidOrders(buyer: String, appID: String) async throws -> [OrderRecord] {
        try await pool.read { connection in
            try await connection.records(
                OrderRecord.self,
                """
                SELECT * FROM purchase_order WHERE buyer_id = \(buyer) AND app_id = \(appID) AND paid_at IS NOT NULL ORDER BY paid_at DESC
                """, logger: pool.logger)
        }
    }

    func order(code: String, appID: String?) async throws -> OrderRecord? {
        try await pool.read { connection in
            try await connection.record(
                OrderRecord.self,
                """
                SELECT * FROM purchase_order WHERE order_code = \(code) AND (\(appID)::text IS NULL OR app_id = \(appID))
                """, logger: pool.logger)
        }
    }

    func markPaid(code: String, appID: String, at time: Int64) async throws -> OrderRecord {
        try await setPaid(code: code, appID: appID, paidAt: time, at: time, unless: "paid_at IS NOT NULL")
    }

    func markUnpaid(code: String, appID: String, at time: Int64) async throws -> OrderRecord {
        try await setPaid(code: code, appID: appID, paidAt: nil, at: time, unless: "paid_at IS NULL")
    }

    /// `paid_at` set, unless it already is what `unless` says (the same code again changes nothing).
    private func setPaid(code: String, appID: String, paidAt: Int64?, at time: Int64, unless: String) async throws -> OrderRecord {
        let logger = pool.logger
        return try await pool.transaction { connection in
            try await connection.query(
                """
                UPDATE purchase_order SET paid_at = \(paidAt), updated_at = \(time) WHERE order_code = \(code) AND app_id = \(appID) AND NOT (\(unescaped: unless))
                """, logger: logger)
            guard
                let order = try await connection.record(
                    OrderRecord.self,
                    """
                    SELECT * FROM purchase_order WHERE order_code = \(code) AND app_id = \(appID)
                    """, logger: logger)
            else { throw StoreError.notFound("no such order") }
            return order
        }
    }
}
