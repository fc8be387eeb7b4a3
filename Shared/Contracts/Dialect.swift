/// How an app wants errors rendered (API.md §0).
package enum Dialect: String, Codable, Sendable, CaseIterable {
    case lslp
    case slp
}
