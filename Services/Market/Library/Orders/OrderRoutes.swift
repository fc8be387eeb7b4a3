import Contracts
import Hummingbird
import ServiceKit

/// §2 orders, and the order endpoints payment-verify-svc uses.
struct OrderRoutes: Sendable {
    let orders: OrderService

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        group.serve(InternalEndpoints.Market.order) { code, _, context in
            try await orders.find(code: code, appID: context.appID)
        }
        group.serve(InternalEndpoints.Market.orderPaid) { code, _, context in
            try await orders.markPaid(code: code, appID: try context.requireAppID(), requestID: context.requestID)
        }
        group.serve(InternalEndpoints.Market.orderRefunded) { code, _, context in
            try await orders.markRefunded(code: code, appID: try context.requireAppID())
        }
        protected.post("/v1/orders") { request, context -> OrderAnswer in
            try await orders.create(try context.requireUser(), try await request.decode(as: OrderRequest.self, context: context))
        }
        protected.get("/v1/orders") { _, context -> DataList<PaidOrderItem> in
            try await orders.paidOrders(try context.requireUser(), requestID: context.requestID)
        }
    }
}
