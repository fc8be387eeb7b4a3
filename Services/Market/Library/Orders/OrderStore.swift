/// Filter orders: opened by buyers, marked paid once by payment-verify-svc.
protocol OrderStore: Sendable {
    /// The buyer's unpaid order of the filter when there is one (retries and reopened payment
    /// sheets get the same order code), else `new`; `StoreError.conflict` when already bought.
    func open(_ new: OrderRecord) async throws -> OrderRecord
    /// The buyer's paid orders, newest payment first.
    func paidOrders(buyer: String, appID: String) async throws -> [OrderRecord]
    /// By code within an app, or in any app (codes are unique ids).
    func order(code: String, appID: String?) async throws -> OrderRecord?
    /// Paid at `time` unless already paid; the order either way (`StoreError.notFound` for none).
    func markPaid(code: String, appID: String, at time: Int64) async throws -> OrderRecord
    /// Unpaid again (its payment refunded); the order either way (`StoreError.notFound` for none).
    func markUnpaid(code: String, appID: String, at time: Int64) async throws -> OrderRecord
}
