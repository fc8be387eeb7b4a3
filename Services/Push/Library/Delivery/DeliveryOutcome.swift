/// What to record of a delivery attempt.
struct DeliveryOutcome: Sendable {
    enum State: Sendable {
        case sent
        /// The token is gone: prune it.
        case dead(String)
        case failed(String)
        case retry(String, at: Int64)
    }

    var delivery: ClaimedDelivery
    var state: State
}
