/// The `limit` query parameter of lists: a number in range, or 400; absent or empty = default.
package enum PageLimit {
    package static func parse(_ text: String?, default fallback: Int = 20, max: Int = 100) throws -> Int {
        guard let text, !text.isEmpty else { return fallback }
        guard let value = Int(text), (1...max).contains(value) else { throw ServiceError.badRequest("limit must be a number from 1 to \(max)") }
        return value
    }
}
