import Contracts
import GRDB
import SQLiteStorage
import ServiceKit

extension OrderRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "purchase_order"
    typealias Columns = CodingKeys
}

extension OrderRecord.CodingKeys: ColumnExpression {}

/// `OrderStore` on market-svc's SQLite file.
struct SQLiteOrderStore: OrderStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func open(_ new: OrderRecord) async throws -> OrderRecord {
        try await database.write { db in
            let existing = try OrderRecord.filter(OrderRecord.Columns.buyerID == new.buyerID && OrderRecord.Columns.filterID == new.filterID)
                .fetchAll(db)
            if let pending = try OrderRules.open(existing: existing) { return pending }
            try new.insert(db)
            return new
        }
    }

    func paidOrders(buyer: String, appID: String) async throws -> [OrderRecord] {
        try await database.read { db in
            try OrderRecord.fetchAll(
                db, sql: "SELECT * FROM purchase_order WHERE buyer_id = ? AND app_id = ? AND paid_at IS NOT NULL ORDER BY paid_at DESC",
                arguments: [buyer, appID])
        }
    }

    func order(code: String, appID: String?) async throws -> OrderRecord? {
        try lookups.readNow { db in
            var request = OrderRecord.filter(OrderRecord.Columns.orderCode == code)
            if let appID { request = request.filter(OrderRecord.Columns.appID == appID) }
            return try request.fetchOne(db)
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
        try await database.write { db in
            try db.execute(
                sql: "UPDATE purchase_order SET paid_at = ?, updated_at = ? WHERE order_code = ? AND app_id = ? AND NOT (\(unless))",
                arguments: [paidAt, time, code, appID])
            guard let order = try OrderRecord.filter(OrderRecord.Columns.orderCode == code && OrderRecord.Columns.appID == appID).fetchOne(db) else {
                throw StoreError.notFound("no such order")
            }
            return order
        }
    }
}
