/// How an app wants errors rendered (API.md §0).
package enum Dialect: String, Codable, Sendable, CaseIterable {
    case lslp
    case slp
    /// Book-story apps (API.md §9): served under a mount, every answer in an envelope.
    case quotehub
}
extension Dialect: WireEnum {}
