/// The deliveries to send (the delivery outbox), claimed with a lease and settled in batches.
protocol DeliveryStore: Sendable {
    /// Due deliveries (pending, or sending with an expired lease), leased until `leaseEnd`.
    func claim(dueAt now: Int64, leaseEnd: Int64, limit: Int) async throws -> [ClaimedDelivery]
    /// How each claimed delivery ended, in one transaction; dead tokens are pruned.
    func settle(_ outcomes: [DeliveryOutcome], at now: Int64) async throws
}
