import Contracts
import Foundation
import ServiceClients
import ServiceKit

/// Filter purchases: orders the apps pay for with PortOne, marked paid by payment-verify-svc.
struct OrderService: Sendable {
    let store: any OrderStore
    let filters: FilterService
    let users: AuthClient

    func create(_ caller: AuthenticatedUser, _ request: OrderRequest) async throws -> OrderAnswer {
        let filter = try await filters.find(request.filterID, caller: caller)
        guard filter.creatorID != caller.userID else { throw ServiceError.badRequest("you cannot buy your own filter") }
        guard request.totalPrice == filter.price else { throw ServiceError.badRequest("total_price must equal the filter's price") }
        let now = GlintDate.nowMilliseconds(), id = ObjectID.generate()
        return try await store.open(
            OrderRecord(
                id: id, appID: caller.appID, orderCode: "ord_" + id, buyerID: caller.userID, filterID: filter.id, totalPrice: filter.price,
                createdAt: now, updatedAt: now
            )
        ).answer
    }

    /// The caller's paid orders, newest payment first.
    func paidOrders(_ caller: AuthenticatedUser, requestID: String) async throws -> DataList<PaidOrderItem> {
        let orders = try await store.paidOrders(buyer: caller.userID, appID: caller.appID)
        return DataList(data: try await items(orders, appID: caller.appID, requestID: requestID))
    }

    /// An order by its code, within an app, or in any app: PortOne's webhook names only the code.
    func find(code: String, appID: String?) async throws -> OrderRecordAnswer {
        guard let order = try await store.order(code: code, appID: appID) else { throw ServiceError.notFound("no such order") }
        return Self.record(order)
    }

    /// Unpaid again, once: the payment was cancelled or refunded at the PG after the grant (the
    /// buyer no longer has the filter, and may buy it again with the same order).
    func markRefunded(code: String, appID: String) async throws -> OrderRecordAnswer {
        Self.record(try await store.markUnpaid(code: code, appID: appID, at: GlintDate.nowMilliseconds()))
    }

    private static func record(_ order: OrderRecord) -> OrderRecordAnswer {
        OrderRecordAnswer(
            orderID: order.id, appID: order.appID, orderCode: order.orderCode, buyerID: order.buyerID, filterID: order.filterID,
            totalPrice: order.totalPrice, paid: order.paidAt != nil)
    }

    /// Marks an order paid exactly once: the same order code again changes nothing and answers
    /// the same item (validation, webhook and retries may all arrive).
    func markPaid(code: String, appID: String, requestID: String) async throws -> PaidOrderItem {
        let order = try await store.markPaid(code: code, appID: appID, at: GlintDate.nowMilliseconds())
        return try await items([order], appID: appID, requestID: requestID)[0]
    }

    private func items(_ orders: [OrderRecord], appID: String, requestID: String) async throws -> [PaidOrderItem] {
        guard !orders.isEmpty else { return [] }
        let records = try await filters.records(Array(Set(orders.map(\.filterID))), appID: appID)
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
        let people = try await users.users(Array(Set(records.map(\.creatorID))), appID, requestID)
        return orders.compactMap { order in
            guard let filter = byID[order.filterID] else { return nil }
            return PaidOrderItem(
                orderID: order.id, orderCode: order.orderCode, paidAt: GlintDate.string(fromMilliseconds: order.paidAt ?? 0),
                createdAt: GlintDate.string(fromMilliseconds: order.createdAt), updatedAt: GlintDate.string(fromMilliseconds: order.updatedAt),
                filter: FilterRenderer.ordered(filter, creator: people.full(filter.creatorID))
            )
        }
    }
}
