/// How one delivery attempt ended, as the providers' answers say it.
enum DeliveryResult: Sendable, Equatable {
    case sent
    /// The token is no longer valid (FCM `UNREGISTERED`/404, APNs 410 or a bad token): prune it.
    case dead(String)
    /// Worth trying again (429, 5xx, network), not before `after` seconds when the provider said.
    case retry(String, after: Double?)
    /// A permanent refusal of this message (e.g. a malformed request); not retried.
    case failed(String)
}
