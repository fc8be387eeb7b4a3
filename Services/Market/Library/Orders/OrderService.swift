import Contracts
import Foundation
import GRDB
import ServiceKit

/// Filter purchases: orders the apps pay for with PortOne, marked paid by payment-verify-svc.
struct OrderService: Sendable {
    let database: any DatabaseWriter
    let users: UsersClient
    let filters: FilterService

    func create(_ caller: AuthenticatedUser, _ request: OrderRequest) async throws -> OrderAnswer {
        let filter = try await filters.find(request.filterID, caller: caller)
        guard filter.creatorID != caller.userID else { throw ServiceError.badRequest("you cannot buy your own filter") }
        guard request.totalPrice == filter.price else { throw ServiceError.badRequest("total_price must equal the filter's price") }
        let now = GlintDate.nowMilliseconds()
        return try await database.write { db in
            let existing = try OrderRecord.filter(OrderRecord.Columns.buyerID == caller.userID && OrderRecord.Columns.filterID == filter.id).fetchAll(db)
            if existing.contains(where: { $0.paidAt != nil }) { throw ServiceError(.conflict, "already bought") }
            // An unpaid order is reused: retries and reopened payment sheets get the same order code.
            if let pending = existing.first { return pending.answer }
            let id = ObjectID.generate()
            let order = OrderRecord(id: id, appID: caller.appID, orderCode: "ord_" + id, buyerID: caller.userID, filterID: filter.id,
                                    totalPrice: filter.price, createdAt: now, updatedAt: now)
            try order.insert(db)
            return order.answer
        }
    }

    /// The caller's paid orders, newest payment first.
    func paidOrders(_ caller: AuthenticatedUser, requestID: String) async throws -> DataList<PaidOrderItem> {
        let orders = try await database.read { db in
            try OrderRecord.fetchAll(db, sql: "SELECT * FROM purchase_order WHERE buyer_id = ? AND app_id = ? AND paid_at IS NOT NULL ORDER BY paid_at DESC",
                                     arguments: [caller.userID, caller.appID])
        }
        return DataList(data: try await items(orders, appID: caller.appID, requestID: requestID))
    }

    /// An order by its code, within an app, or in any app (order codes are unique ids): PortOne's
    /// webhook names only the code.
    func find(code: String, appID: String?) async throws -> OrderRecordAnswer {
        let order = try await database.read { db in
            var request = OrderRecord.filter(OrderRecord.Columns.orderCode == code)
            if let appID { request = request.filter(OrderRecord.Columns.appID == appID) }
            return try request.fetchOne(db)
        }
        guard let order else { throw ServiceError.notFound("no such order") }
        return OrderRecordAnswer(orderID: order.id, appID: order.appID, orderCode: order.orderCode, buyerID: order.buyerID, filterID: order.filterID,
                                 totalPrice: order.totalPrice, paid: order.paidAt != nil)
    }

    /// Marks an order paid exactly once: the same order code again changes nothing and answers
    /// the same item (validation, webhook and retries may all arrive).
    func markPaid(code: String, appID: String, requestID: String) async throws -> PaidOrderItem {
        let now = GlintDate.nowMilliseconds()
        let order = try await database.write { db -> OrderRecord in
            try db.execute(sql: "UPDATE purchase_order SET paid_at = ?, updated_at = ? WHERE order_code = ? AND app_id = ? AND paid_at IS NULL",
                           arguments: [now, now, code, appID])
            guard let order = try OrderRecord.filter(OrderRecord.Columns.orderCode == code && OrderRecord.Columns.appID == appID).fetchOne(db) else {
                throw ServiceError.notFound("no such order")
            }
            return order
        }
        return try await items([order], appID: appID, requestID: requestID)[0]
    }

    private func items(_ orders: [OrderRecord], appID: String, requestID: String) async throws -> [PaidOrderItem] {
        guard !orders.isEmpty else { return [] }
        let filterIDs = orders.map(\.filterID)
        let records = try await database.read { db in
            try FilterRecord.fetchAll(db, sql: "SELECT * FROM filter WHERE id IN (\(databaseQuestionMarks(count: filterIDs.count)))", arguments: StatementArguments(filterIDs))
        }
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
        let people = try await users.users(Array(Set(records.map(\.creatorID))), appID, requestID)
        return orders.compactMap { order in
            guard let filter = byID[order.filterID] else { return nil }
            let creator = people.full(filter.creatorID)
            return PaidOrderItem(
                orderID: order.id, orderCode: order.orderCode, paidAt: GlintDate.string(fromMilliseconds: order.paidAt ?? 0),
                createdAt: GlintDate.string(fromMilliseconds: order.createdAt), updatedAt: GlintDate.string(fromMilliseconds: order.updatedAt),
                filter: .init(id: filter.id, category: filter.category, title: filter.title, description: filter.description, files: filter.fileList,
                              price: filter.price, creator: creator, filterValues: filter.values,
                              createdAt: GlintDate.string(fromMilliseconds: filter.createdAt), updatedAt: GlintDate.string(fromMilliseconds: filter.updatedAt))
            )
        }
    }
}
