import ServiceKit

/// Opening an order, whatever engine keeps it: one open order per buyer and filter, none once
/// the filter is bought. Each store reads the buyer's orders of the filter, asks, and writes.
enum OrderRules {
    /// The open order to answer again, or nil to store `new`.
    static func open(existing: [OrderRecord]) throws -> OrderRecord? {
        guard !existing.contains(where: { $0.paidAt != nil }) else { throw StoreError.conflict("already bought") }
        return existing.first
    }
}
