import Contracts
import Foundation
import GRDB
import ServiceKit

/// Filter purchases: orders the apps pay for with PortOne, marked paid by payment-verify-svc.
struct OrderService: Sendable {
    let database: any DatabaseWriter
    let users: UserDirectory
    let filters: FilterService

    func create(_ caller: AuthenticatedUser, _ request: OrderRequest) async throws -> OrderAnswer {
        let filter = try await filters.find(request.filterID, caller: caller)
        guard filter.creatorID != caller.userID else { throw ServiceError.badRequest("you cannot buy your own filter") }
        guard request.totalPrice == filter.price else { throw ServiceError.badRequest("total_price must equal the filter's price") }
        let now = GlintDate.nowMilliseconds()
        return try await database.write { db in
            let existing = try Row.fetchAll(db, sql: "SELECT * FROM purchase_order WHERE buyer_id = ? AND filter_id = ?", arguments: [caller.userID, filter.id])
            if existing.contains(where: { ($0["paid_at"] as Int64?) != nil }) { throw ServiceError(.conflict, "already bought") }
            // An unpaid order is reused: retries and reopened payment sheets get the same order code.
            if let pending = existing.first {
                return Self.answer(pending)
            }
            let id = ObjectID.generate()
            try db.execute(sql: """
                INSERT INTO purchase_order (id, app_id, order_code, buyer_id, filter_id, total_price, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, caller.appID, "ord_" + id, caller.userID, filter.id, filter.price, now, now])
            return OrderAnswer(orderID: id, orderCode: "ord_" + id, totalPrice: filter.price,
                               createdAt: GlintDate.string(fromMilliseconds: now), updatedAt: GlintDate.string(fromMilliseconds: now))
        }
    }

    /// The caller's paid orders, newest payment first.
    func paidOrders(_ caller: AuthenticatedUser, requestID: String) async throws -> DataList<PaidOrderItem> {
        let rows = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM purchase_order WHERE buyer_id = ? AND app_id = ? AND paid_at IS NOT NULL ORDER BY paid_at DESC",
                             arguments: [caller.userID, caller.appID])
        }
        return DataList(data: try await items(rows, appID: caller.appID, requestID: requestID))
    }

    func find(code: String, appID: String) async throws -> OrderRecordAnswer {
        let row = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM purchase_order WHERE order_code = ? AND app_id = ?", arguments: [code, appID])
        }
        guard let row else { throw ServiceError.notFound("no such order") }
        return OrderRecordAnswer(orderID: row["id"], orderCode: row["order_code"], buyerID: row["buyer_id"], filterID: row["filter_id"],
                                 totalPrice: row["total_price"], paid: (row["paid_at"] as Int64?) != nil)
    }

    /// Marks an order paid exactly once: the same order code again changes nothing and answers
    /// the same item (validation, webhook and retries may all arrive).
    func markPaid(code: String, appID: String, requestID: String) async throws -> PaidOrderItem {
        let now = GlintDate.nowMilliseconds()
        let row = try await database.write { db -> Row in
            try db.execute(sql: "UPDATE purchase_order SET paid_at = ?, updated_at = ? WHERE order_code = ? AND app_id = ? AND paid_at IS NULL",
                           arguments: [now, now, code, appID])
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM purchase_order WHERE order_code = ? AND app_id = ?", arguments: [code, appID]) else {
                throw ServiceError.notFound("no such order")
            }
            return row
        }
        return try await items([row], appID: appID, requestID: requestID)[0]
    }

    private func items(_ rows: [Row], appID: String, requestID: String) async throws -> [PaidOrderItem] {
        guard !rows.isEmpty else { return [] }
        let filterIDs: [String] = rows.map { $0["filter_id"] }
        let records = try await database.read { db in
            try FilterRecord.fetchAll(db, sql: "SELECT * FROM filter WHERE id IN (\(databaseQuestionMarks(count: filterIDs.count)))", arguments: StatementArguments(filterIDs))
        }
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
        let people = try await users.users(Array(Set(records.map(\.creatorID))), appID, requestID)
        return rows.compactMap { row in
            guard let filter = byID[row["filter_id"]] else { return nil }
            let creator = people[filter.creatorID] ?? UserInfoFull(userID: filter.creatorID, nick: "", profileImage: nil, name: "", introduction: "", description: "", hashTags: [])
            return PaidOrderItem(
                orderID: row["id"], orderCode: row["order_code"], paidAt: GlintDate.string(fromMilliseconds: row["paid_at"] ?? 0),
                createdAt: GlintDate.string(fromMilliseconds: row["created_at"]), updatedAt: GlintDate.string(fromMilliseconds: row["updated_at"]),
                filter: .init(id: filter.id, category: filter.category, title: filter.title, description: filter.description, files: filter.fileList,
                              price: filter.price, creator: creator, filterValues: filter.values,
                              createdAt: GlintDate.string(fromMilliseconds: filter.createdAt), updatedAt: GlintDate.string(fromMilliseconds: filter.updatedAt))
            )
        }
    }

    private static func answer(_ row: Row) -> OrderAnswer {
        OrderAnswer(orderID: row["id"], orderCode: row["order_code"], totalPrice: row["total_price"],
                    createdAt: GlintDate.string(fromMilliseconds: row["created_at"]), updatedAt: GlintDate.string(fromMilliseconds: row["updated_at"]))
    }
}
